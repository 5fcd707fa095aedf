// The seal: initialisation (unseal key split into Shamir shares, root key, first keyring), the unseal state
// machine (progress, nonce, duplicates ignored, reset), and sealing again. The unseal key encrypts the root key;
// the root key encrypts the keyring (see storage/barrier.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { open, seal as encrypt } from '../../../core/crypto.ts';
import { SecretsError, badRequest } from '../contract.ts';
import type { Barrier } from '../storage/barrier.ts';
import type { PhysicalStorage } from '../storage/physical.ts';
import { combine, split } from './shamir.ts';

export const SEAL_CONFIG_PATH = 'core/seal-config';
export const ROOT_KEY_PATH = 'core/hsm/barrier-unseal-keys';

export interface SealConfig {
  type: 'shamir';
  secret_shares: number;
  secret_threshold: number;
}

export interface InitResult {
  keys: string[];
  keys_base64: string[];
  /** The unseal key itself (kept by dev mode only). */
  unsealKey: Buffer;
  rootKey: Buffer;
}

export interface SealStatus {
  initialized: boolean;
  sealed: boolean;
  t: number;
  n: number;
  progress: number;
  nonce: string;
}

/** Vault's rules for a share configuration (init and rekey). */
export function validateShareConfig(shares: number, threshold: number): void {
  if (shares < 1) throw badRequest('invalid seal configuration: shares must be at least one');
  if (threshold < 1) throw badRequest('invalid seal configuration: threshold must be at least one');
  if (threshold > shares) throw badRequest('invalid seal configuration: threshold cannot be larger than shares');
  if (shares > 1 && threshold < 2) throw badRequest('invalid seal configuration: threshold must be greater than one for multiple shares');
  if (shares > 255 || threshold > 255) throw badRequest('invalid seal configuration: shares must be less than 256');
}

export class Seal {
  readonly #physical: PhysicalStorage;
  readonly #barrier: Barrier;
  #config: SealConfig | null | undefined;
  #shares: Buffer[] = [];
  #nonce = '';
  #rootKey: Buffer | null = null;

  constructor(physical: PhysicalStorage, barrier: Barrier) {
    this.#physical = physical;
    this.#barrier = barrier;
  }

  async config(): Promise<SealConfig | null> {
    if (this.#config === undefined) {
      const raw = await this.#physical.get(SEAL_CONFIG_PATH);
      this.#config = raw ? (JSON.parse(raw.toString('utf8')) as SealConfig) : null;
    }
    return this.#config;
  }

  /** Forgets the cached configuration (after a reset of the tables). */
  forget(): void {
    this.#config = undefined;
    this.#shares = [];
    this.#nonce = '';
    this.#rootKey = null;
    this.#barrier.seal();
  }

  async status(): Promise<SealStatus> {
    const config = await this.config();
    return {
      initialized: config !== null,
      sealed: this.#barrier.sealed,
      t: config?.secret_threshold ?? 0,
      n: config?.secret_shares ?? 0,
      progress: this.#shares.length,
      nonce: this.#nonce,
    };
  }

  /** Validated by the caller. Leaves the store sealed; `withUnsealed` runs while the barrier is open (root token). */
  async initialize(shares: number, threshold: number, now: number, withUnsealed: () => Promise<void>): Promise<InitResult> {
    if (await this.config()) throw badRequest('Vault is already initialized');
    const unsealKey = randomBytes(32);
    const rootKey = randomBytes(32);
    await this.#barrier.initialize(rootKey, now);
    await this.#physical.put(ROOT_KEY_PATH, encrypt(unsealKey, rootKey, ROOT_KEY_PATH));
    const config: SealConfig = { type: 'shamir', secret_shares: shares, secret_threshold: threshold };
    await this.#barrier.unseal(rootKey);
    try {
      await withUnsealed();
    } finally {
      this.#barrier.seal();
    }
    // Written last: a crash before this point leaves the store uninitialised rather than half-made.
    await this.#physical.put(SEAL_CONFIG_PATH, Buffer.from(JSON.stringify(config)));
    this.#config = config;
    const parts = shares === 1 ? [unsealKey] : split(unsealKey, shares, threshold);
    return {
      keys: parts.map((p) => p.toString('hex')),
      keys_base64: parts.map((p) => p.toString('base64')),
      unsealKey,
      rootKey,
    };
  }

  /** Adds one share. Returns true when this call unsealed the barrier. */
  async submit(share: Buffer): Promise<boolean> {
    const config = await this.config();
    if (!config) throw badRequest('Vault is not initialized');
    if (!this.#barrier.sealed) return false;
    if (this.#shares.some((s) => s.equals(share))) return false;
    if (this.#shares.length === 0) this.#nonce = randomUUID();
    this.#shares.push(share);
    if (this.#shares.length < config.secret_threshold) return false;
    const shares = this.#shares;
    this.resetProgress();
    let unsealKey: Buffer;
    if (config.secret_threshold === 1) unsealKey = shares[0]!;
    else {
      try {
        unsealKey = combine(shares);
      } catch (err) {
        throw badRequest(`failed to compose unseal key: ${(err as Error).message}`);
      }
    }
    await this.unsealWithKey(unsealKey);
    return true;
  }

  /** Opens the root key with the unseal key and the keyring with the root key. */
  async unsealWithKey(unsealKey: Buffer): Promise<void> {
    const sealedRoot = await this.#physical.get(ROOT_KEY_PATH);
    if (!sealedRoot) throw new SecretsError(500, 'root key not found');
    let rootKey: Buffer;
    try {
      rootKey = open(unsealKey, sealedRoot, ROOT_KEY_PATH);
    } catch {
      throw badRequest('unseal failed, invalid key');
    }
    await this.#barrier.unseal(rootKey);
    this.#rootKey = rootKey;
  }

  /**
   * Replaces the unseal key (rekey): the current shares are checked, the root key is stored under a new unseal key,
   * split as asked, and the seal configuration updated. The root key and keyring stay the same.
   */
  async rekey(current: Buffer[], shares: number, threshold: number): Promise<{ keys: string[]; keys_base64: string[]; unsealKey: Buffer }> {
    const rootKey = await this.verifyShares(current);
    const unsealKey = randomBytes(32);
    await this.#physical.put(ROOT_KEY_PATH, encrypt(unsealKey, rootKey, ROOT_KEY_PATH));
    const config: SealConfig = { type: 'shamir', secret_shares: shares, secret_threshold: threshold };
    await this.#physical.put(SEAL_CONFIG_PATH, Buffer.from(JSON.stringify(config)));
    this.#config = config;
    const parts = shares === 1 ? [unsealKey] : split(unsealKey, shares, threshold);
    return { keys: parts.map((p) => p.toString('hex')), keys_base64: parts.map((p) => p.toString('base64')), unsealKey };
  }

  /** The unseal key reconstructed from shares (or the single key), checked against the stored root key. */
  async verifyShares(shares: Buffer[]): Promise<Buffer> {
    const config = await this.config();
    if (!config) throw badRequest('Vault is not initialized');
    let unsealKey: Buffer;
    try {
      unsealKey = config.secret_threshold === 1 ? shares[0]! : combine(shares);
    } catch (err) {
      throw badRequest(`failed to compose unseal key: ${(err as Error).message}`);
    }
    const sealedRoot = await this.#physical.get(ROOT_KEY_PATH);
    if (!sealedRoot) throw new SecretsError(500, 'root key not found');
    try {
      return open(unsealKey, sealedRoot, ROOT_KEY_PATH);
    } catch {
      throw badRequest('unable to authenticate: invalid key');
    }
  }

  resetProgress(): void {
    this.#shares = [];
    this.#nonce = '';
  }

  seal(): void {
    this.resetProgress();
    this.#rootKey = null;
    this.#barrier.seal();
  }

  /** The root key, for keyring rotation (only while unsealed). */
  rootKey(): Buffer {
    if (!this.#rootKey) throw new SecretsError(503, 'Vault is sealed');
    return this.#rootKey;
  }
}
