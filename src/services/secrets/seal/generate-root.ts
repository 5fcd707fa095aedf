// Generating a new root token from unseal shares (the OTP flow): an attempt hands out a one-time pad; once enough
// shares were given, a root token is issued and returned XOR-ed with the pad, base64-encoded, so only the holder of
// the pad can read it. State lives in this process, like unseal progress.
import { randomBytes, randomUUID } from 'node:crypto';
import { badRequest } from '../contract.ts';
import type { Seal } from './seal.ts';

/** Length of root tokens issued here (`hvs.` + 24 characters), and so of the pad. */
export const OTP_LENGTH = 28;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length)) if (b < 248 && out.length < length) out += BASE62[b % 62];
  }
  return out;
}

export function xorEncode(token: string, otp: string): string {
  const a = Buffer.from(token, 'utf8');
  const b = Buffer.from(otp, 'utf8');
  if (a.length !== b.length) throw new Error('token and one-time pad lengths differ');
  return Buffer.from(a.map((x, i) => x ^ b[i]!)).toString('base64');
}

export interface GenerateRootStatus {
  started: boolean;
  nonce: string;
  progress: number;
  required: number;
  complete: boolean;
  encoded_token: string;
  encoded_root_token: string;
  pgp_fingerprint: string;
  otp: string;
  otp_length: number;
}

export class GenerateRoot {
  readonly #seal: Seal;
  #attempt: { nonce: string; otp: string; shares: Buffer[] } | null = null;

  constructor(seal: Seal) {
    this.#seal = seal;
  }

  async status(extra: Partial<GenerateRootStatus> = {}): Promise<GenerateRootStatus> {
    const config = await this.#seal.config();
    return {
      started: this.#attempt !== null,
      nonce: this.#attempt?.nonce ?? '',
      progress: this.#attempt?.shares.length ?? 0,
      required: config?.secret_threshold ?? 0,
      complete: false,
      encoded_token: '',
      encoded_root_token: '',
      pgp_fingerprint: '',
      otp: '',
      otp_length: OTP_LENGTH,
      ...extra,
    };
  }

  async start(): Promise<GenerateRootStatus> {
    if (this.#attempt) throw badRequest('root generation already in progress');
    const otp = base62(OTP_LENGTH);
    this.#attempt = { nonce: randomUUID(), otp, shares: [] };
    return this.status({ otp });
  }

  cancel(): void {
    this.#attempt = null;
  }

  /** Adds a share; at the threshold issues the token through `issue` and returns it encoded with the pad. */
  async update(share: Buffer, nonce: unknown, issue: (id: string) => Promise<string>): Promise<GenerateRootStatus> {
    const attempt = this.#attempt;
    if (!attempt) throw badRequest('no root generation in progress');
    if (nonce !== attempt.nonce) throw badRequest(`incorrect nonce supplied; nonce for this root generation operation is ${attempt.nonce}`);
    if (!attempt.shares.some((s) => s.equals(share))) attempt.shares.push(share);
    const config = await this.#seal.config();
    if (attempt.shares.length < (config?.secret_threshold ?? 1)) return this.status();
    const shares = attempt.shares;
    this.#attempt = null;
    await this.#seal.verifyShares(shares);
    const token = await issue(`hvs.${base62(OTP_LENGTH - 4)}`);
    const encoded = xorEncode(token, attempt.otp);
    return this.status({ started: true, nonce: attempt.nonce, progress: shares.length, complete: true, encoded_token: encoded, encoded_root_token: encoded });
  }
}
