// Rekeying: replacing the unseal key and its shares (new count and threshold) once enough current shares were given.
// The root key and the keyring do not change. State lives in this process, like unseal progress.
import { randomUUID } from 'node:crypto';
import { badRequest } from '../contract.ts';
import { validateShareConfig, type Seal } from './seal.ts';

export interface RekeyStatus {
  nonce: string;
  started: boolean;
  t: number;
  n: number;
  progress: number;
  required: number;
  pgp_fingerprints: null;
  backup: boolean;
  verification_required: boolean;
}

export interface RekeyResult {
  nonce: string;
  complete: true;
  keys: string[];
  keys_base64: string[];
  pgp_fingerprints: null;
  backup: boolean;
  verification_required: boolean;
}

export class Rekey {
  readonly #seal: Seal;
  #attempt: { nonce: string; shares: number; threshold: number; given: Buffer[] } | null = null;

  constructor(seal: Seal) {
    this.#seal = seal;
  }

  async status(): Promise<RekeyStatus> {
    const config = await this.#seal.config();
    const a = this.#attempt;
    return {
      nonce: a?.nonce ?? '',
      started: a !== null,
      t: a?.threshold ?? 0,
      n: a?.shares ?? 0,
      progress: a?.given.length ?? 0,
      required: config?.secret_threshold ?? 0,
      pgp_fingerprints: null,
      backup: false,
      verification_required: false,
    };
  }

  async start(shares: number, threshold: number): Promise<RekeyStatus> {
    if (this.#attempt) throw badRequest('rekey already in progress');
    validateShareConfig(shares, threshold);
    this.#attempt = { nonce: randomUUID(), shares, threshold, given: [] };
    return this.status();
  }

  cancel(): void {
    this.#attempt = null;
  }

  /** Adds a current share; at the threshold performs the rekey and returns the new shares. */
  async update(share: Buffer, nonce: unknown): Promise<RekeyStatus | (RekeyResult & { unsealKey: Buffer })> {
    const a = this.#attempt;
    if (!a) throw badRequest('no rekey in progress');
    if (nonce !== a.nonce) throw badRequest(`incorrect nonce supplied; nonce for this rekey operation is ${a.nonce}`);
    if (!a.given.some((s) => s.equals(share))) a.given.push(share);
    const config = await this.#seal.config();
    if (a.given.length < (config?.secret_threshold ?? 1)) return this.status();
    this.#attempt = null;
    const result = await this.#seal.rekey(a.given, a.shares, a.threshold);
    return { nonce: a.nonce, complete: true, keys: result.keys, keys_base64: result.keys_base64, pgp_fingerprints: null, backup: false, verification_required: false, unsealKey: result.unsealKey };
  }
}
