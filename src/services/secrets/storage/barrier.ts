// The barrier: every logical value is encrypted with the current keyring term (AES-256-GCM, random nonce, storage
// path as additional data). The keyring itself is stored encrypted by the root key. Sealed = no keyring in memory.
import { randomBytes } from 'node:crypto';
import { detached } from '../../../core/cache.ts';
import { open, seal } from '../../../core/crypto.ts';
import { SecretsError } from '../contract.ts';
import type { PhysicalStorage } from './physical.ts';

export const KEYRING_PATH = 'core/keyring';
const VERSION = 2;

export interface KeyTerm {
  term: number;
  key: Buffer;
  installTime: string;
}

interface StoredKeyring {
  terms: Array<{ term: number; key: string; install_time: string }>;
}

export const sealedError = () => new SecretsError(503, 'Vault is sealed');

export class Barrier {
  readonly #physical: PhysicalStorage;
  #terms: Map<number, KeyTerm> | null = null;
  #active: KeyTerm | null = null;
  /** Encryptions under the active term since this process unsealed (reported by sys/key-status). */
  #encryptions = 0;
  /**
   * Plaintext of ciphertext buffers already opened, keyed by the buffer object the physical cache hands out again;
   * dropped with the buffer, and on seal.
   */
  #opened = new WeakMap<Buffer, { path: string; plaintext: Buffer }>();

  constructor(physical: PhysicalStorage) {
    this.#physical = physical;
  }

  get sealed(): boolean {
    return this.#terms === null;
  }

  /** Creates the first keyring (at init) and stores it under the root key. */
  async initialize(rootKey: Buffer, now: number): Promise<void> {
    const first: KeyTerm = { term: 1, key: randomBytes(32), installTime: new Date(now).toISOString() };
    await this.#storeKeyring(rootKey, [first]);
  }

  /** Opens the keyring with the root key; throws when the root key is wrong. */
  async unseal(rootKey: Buffer): Promise<void> {
    const sealed = await this.#physical.get(KEYRING_PATH);
    if (!sealed) throw new SecretsError(500, 'keyring not found');
    const stored = JSON.parse(open(rootKey, sealed, KEYRING_PATH).toString('utf8')) as StoredKeyring;
    const terms = new Map<number, KeyTerm>();
    for (const t of stored.terms) terms.set(t.term, { term: t.term, key: Buffer.from(t.key, 'base64'), installTime: t.install_time });
    this.#terms = terms;
    this.#active = [...terms.values()].reduce((a, b) => (b.term > a.term ? b : a));
    this.#encryptions = 0;
  }

  seal(): void {
    this.#opened = new WeakMap();
    this.#terms = null;
    this.#active = null;
  }

  /** Adds a new key term; later writes use it, older values stay readable. */
  async rotate(rootKey: Buffer, now: number): Promise<KeyTerm> {
    const terms = this.#requireTerms();
    const next: KeyTerm = { term: this.#active!.term + 1, key: randomBytes(32), installTime: new Date(now).toISOString() };
    await this.#storeKeyring(rootKey, [...terms.values(), next]);
    terms.set(next.term, next);
    this.#active = next;
    this.#encryptions = 0;
    return next;
  }

  keyStatus(): { term: number; install_time: string; encryptions: number } {
    this.#requireTerms();
    return { term: this.#active!.term, install_time: this.#active!.installTime, encryptions: this.#encryptions };
  }

  async get(path: string): Promise<Buffer | undefined> {
    return (await this.read(path)).plaintext;
  }

  /**
   * The plaintext of `path` when the value cache holds it, without waiting: null when the path is known to be absent,
   * undefined when only `get` can tell (not cached, or sealed: `get` then refuses).
   */
  peek(path: string): Buffer | null | undefined {
    if (this.#terms === null) return undefined;
    const value = this.#physical.peek(path);
    return value ? this.#open(path, value) : value;
  }

  async has(path: string): Promise<boolean> {
    this.#requireTerms();
    return (await this.#physical.get(path)) !== undefined;
  }

  /** The plaintext and the ciphertext it came from (the revision a guarded write checks). */
  async read(path: string): Promise<{ plaintext: Buffer | undefined; revision: Buffer | null }> {
    const value = await this.#physical.get(path);
    return { plaintext: value ? this.#open(path, value) : undefined, revision: value ?? null };
  }

  #open(path: string, value: Buffer): Buffer {
    const terms = this.#requireTerms();
    const known = this.#opened.get(value);
    if (known && known.path === path) return known.plaintext;
    const term = terms.get(value.readUInt32BE(0));
    if (!term || value[4] !== VERSION) throw new SecretsError(500, `no key term to decrypt ${path}`);
    const plaintext = detached(open(term.key, value.subarray(5), path));
    this.#opened.set(value, { path, plaintext });
    return plaintext;
  }

  async put(path: string, plaintext: Buffer): Promise<void> {
    await this.#physical.put(path, this.#encrypt(path, plaintext));
  }

  /** Puts (`plaintext` given) and deletes (null) atomically; `guard` as in PhysicalStorage.writeMany. */
  async writeMany(ops: Array<{ path: string; plaintext: Buffer | null }>, guard?: { path: string; expected: Buffer | null }): Promise<void> {
    await this.#physical.writeMany(
      ops.map((op) => ({ path: op.path, value: op.plaintext === null ? null : this.#encrypt(op.path, op.plaintext) })),
      guard,
    );
  }

  #encrypt(path: string, plaintext: Buffer): Buffer {
    this.#requireTerms();
    const active = this.#active!;
    const header = Buffer.alloc(5);
    header.writeUInt32BE(active.term, 0);
    header[4] = VERSION;
    this.#encryptions++;
    // Both stay in memory as long as the physical cache keeps the value: detached, so neither holds a buffer pool.
    const sealed = detached(Buffer.concat([header, seal(active.key, plaintext, path)]));
    // The physical cache hands this very buffer back on the next read: that read need not decrypt it again.
    this.#opened.set(sealed, { path, plaintext: detached(plaintext) });
    return sealed;
  }

  async delete(path: string): Promise<void> {
    this.#requireTerms();
    await this.#physical.delete(path);
  }

  async keys(prefix: string): Promise<string[]> {
    this.#requireTerms();
    return this.#physical.keys(prefix);
  }

  async deletePrefix(prefix: string): Promise<void> {
    this.#requireTerms();
    await this.#physical.deletePrefix(prefix);
  }

  async #storeKeyring(rootKey: Buffer, terms: KeyTerm[]): Promise<void> {
    const stored: StoredKeyring = {
      terms: terms.map((t) => ({ term: t.term, key: t.key.toString('base64'), install_time: t.installTime })),
    };
    await this.#physical.put(KEYRING_PATH, seal(rootKey, Buffer.from(JSON.stringify(stored)), KEYRING_PATH));
  }

  #requireTerms(): Map<number, KeyTerm> {
    if (!this.#terms) throw sealedError();
    return this.#terms;
  }
}
