// Field-guard lockout arithmetic. More than 5 denials within 30 minutes lock the token for one hour from the denial
// that crossed the line; more than 20 denials in total lock it for good. Attempts refused while locked are not
// denials (the guard was never evaluated), so they do not extend the lock.

export const WINDOW_MS = 30 * 60_000;
export const LOCK_MS = 60 * 60_000;
export const WINDOW_LIMIT = 5;
export const TOTAL_LIMIT = 20;

export type LockState = { locked: false } | { locked: true; permanent: true } | { locked: true; permanent: false; until: number };

/** The lock state at `now` given the times of every denial so far (any order). */
export function guardLockState(denials: number[], now: number): LockState {
  if (denials.length > TOTAL_LIMIT) return { locked: true, permanent: true };
  const times = [...denials].sort((a, b) => a - b);
  let until = -Infinity;
  for (let i = WINDOW_LIMIT; i < times.length; i++) {
    // times[i] is a denial with at least WINDOW_LIMIT others in the half-open window (times[i] - 30 min, times[i]].
    if (times[i] - times[i - WINDOW_LIMIT] < WINDOW_MS) until = Math.max(until, times[i] + LOCK_MS);
  }
  return now < until ? { locked: true, permanent: false, until } : { locked: false };
}
