// Read-modify-write of one stored value that holds across instances: the write is guarded by the revision read, and a
// lost race reads again. Used where a count must never be spent twice (token uses, secret-id uses).
import { StorageConflictError, type BarrierStorage } from '../contract.ts';

const ATTEMPTS = 8;

/**
 * Applies `change` to the current value of `key`. `change` returns the new value, `null` to delete the key, or
 * undefined to leave it as it is (answering undefined). Answers the value replaced and what replaced it.
 */
export async function guardedUpdate<T>(
  view: BarrierStorage,
  key: string,
  change: (current: T) => T | null | undefined,
): Promise<{ previous: T; next: T | null } | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { value, revision } = await view.read<T>(key);
    if (value === undefined) return undefined;
    const next = change(value);
    if (next === undefined) return undefined;
    try {
      await view.batch([{ key, value: next === null ? undefined : next }], { key, revision });
      return { previous: value, next };
    } catch (err) {
      if (!(err instanceof StorageConflictError)) throw err;
    }
  }
  // Contended beyond reason: refuse rather than risk spending a use twice.
  return undefined;
}
