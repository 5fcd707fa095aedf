// `config.expire_in`: how long a Paylink token stays open. A number of seconds or a string such as `90s`, `20m`,
// `4h`, `2d`, `4w`, `6M`, `1y` (`M` months, `m` minutes). 0 means it never expires; absent means 30 minutes.

export const DEFAULT_EXPIRE_MS = 30 * 60_000;

const UNIT_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** The expiry time in epoch ms (null: never), or undefined when the value is not understood. */
export function expiryFromExpireIn(raw: unknown, now: number): number | null | undefined {
  if (raw === undefined || raw === null || raw === '') return now + DEFAULT_EXPIRE_MS;
  if (typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw))) {
    const seconds = Number(raw);
    if (!Number.isSafeInteger(seconds) || seconds < 0) return undefined;
    return seconds === 0 ? null : now + seconds * 1000;
  }
  if (typeof raw !== 'string') return undefined;
  const m = /^(\d{1,6})([smhdwMy])$/.exec(raw.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (n === 0) return null;
  const unit = m[2];
  if (unit === 'M' || unit === 'y') {
    const d = new Date(now);
    d.setUTCMonth(d.getUTCMonth() + (unit === 'M' ? n : n * 12));
    return d.getTime();
  }
  return now + n * UNIT_MS[unit];
}
