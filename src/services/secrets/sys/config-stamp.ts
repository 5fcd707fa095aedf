// Instances sharing one database cache the mount tables, namespaces and CORS settings. Every change to them stores a
// new stamp; each request compares the stored stamp with the one this process last saw and drops its caches when
// another instance changed something.
import { randomUUID } from 'node:crypto';
import type { BarrierStorage } from '../contract.ts';

export class ConfigStamp {
  readonly #storage: () => BarrierStorage;
  readonly #onStale: () => void;
  #seen: string | undefined;

  constructor(storage: () => BarrierStorage, onStale: () => void) {
    this.#storage = storage;
    this.#onStale = onStale;
  }

  /** Drops the caches when the stored stamp is not the last one seen. */
  async check(): Promise<void> {
    const stored = await this.#storage().get<string>('config-stamp');
    if (stored !== this.#seen) {
      this.#seen = stored;
      this.#onStale();
    }
  }

  /** Records a change made by this process. */
  async bump(): Promise<void> {
    const stamp = randomUUID();
    await this.#storage().put('config-stamp', stamp);
    this.#seen = stamp;
  }

  forget(): void {
    this.#seen = undefined;
  }
}
