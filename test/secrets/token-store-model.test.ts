// Model-based test of the token store: random sequences of create (child or orphan), revoke, revoke-orphan and
// clock moves, checked after every step against a plain model of the token tree (alive = not revoked, not expired,
// and every ancestor alive).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { childrenOf } from '../../src/services/secrets/storage/logical.ts';
import { StorageConflictError, type BarrierStorage, type Namespace, type SecretsCore } from '../../src/services/secrets/contract.ts';
import { TokenStore } from '../../src/services/secrets/token/store.ts';
import { tokenEntry } from './token-fixtures.ts';

/** Map-backed storage with the contract's semantics (views, listing, guarded batches). */
function memoryStorage(data = new Map<string, string>(), prefix = ''): BarrierStorage {
  return {
    async get(key) {
      const v = data.get(prefix + key);
      return v === undefined ? undefined : JSON.parse(v);
    },
    async has(key) {
      return data.has(prefix + key);
    },
    async put(key, value) {
      data.set(prefix + key, JSON.stringify(value));
    },
    async delete(key) {
      data.delete(prefix + key);
    },
    async list(p) {
      return childrenOf(prefix + p, [...data.keys()]);
    },
    view(p) {
      return memoryStorage(data, prefix + p);
    },
    keptView(p) {
      return memoryStorage(data, prefix + p);
    },
    async read(key) {
      const v = data.get(prefix + key);
      return { value: v === undefined ? undefined : JSON.parse(v), revision: v === undefined ? null : Buffer.from(v) };
    },
    async batch(ops, guard) {
      if (guard) {
        const v = data.get(prefix + guard.key);
        const same = v === undefined ? guard.revision === null : guard.revision !== null && Buffer.from(v).equals(guard.revision);
        if (!same) throw new StorageConflictError('conflict');
      }
      for (const op of ops) {
        if (op.value === undefined) data.delete(prefix + op.key);
        else data.set(prefix + op.key, JSON.stringify(op.value));
      }
    },
    async locked(_key, fn) {
      return fn();
    },
  };
}

const ROOT_NS: Namespace = { id: 'root', path: '' };

function fakeCore(clock: { t: number }): SecretsCore {
  const storage = memoryStorage();
  return {
    clock: { now: () => clock.t },
    systemStorage: () => storage.view('sys/'),
    namespaceById: async (id: string) => (id === 'root' ? ROOT_NS : undefined),
    namespaceByPath: async (p: string) => (p === '' ? ROOT_NS : undefined),
    ancestors: async () => [ROOT_NS],
    salt: async () => Buffer.alloc(32, 7),
    log: { info() {}, warn() {}, error() {} },
  } as unknown as SecretsCore;
}

type Op =
  | { kind: 'create'; parent: number | null; ttl: number }
  | { kind: 'revoke'; target: number }
  | { kind: 'orphan'; target: number }
  | { kind: 'advance'; seconds: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), parent: fc.option(fc.nat(20), { nil: null }), ttl: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('revoke' as const), target: fc.nat(20) }),
  fc.record({ kind: fc.constant('orphan' as const), target: fc.nat(20) }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 60 }) }),
);

interface ModelToken {
  id: string;
  parent: number | null;
  expireAt: number;
  revoked: boolean;
}

describe('token store model', () => {
  it('agrees with the model of the token tree after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const clock = { t: 1_000_000 };
        const store = new TokenStore(fakeCore(clock));
        const model: ModelToken[] = [];
        const alive = (i: number): boolean => {
          const m = model[i];
          return !m.revoked && clock.t < m.expireAt && (m.parent === null || alive(m.parent));
        };
        const subtree = (i: number): number[] => [i, ...model.flatMap((m, j) => (m.parent === i && !m.revoked ? subtree(j) : []))];
        for (const step of ops) {
          if (step.kind === 'create') {
            const parent = step.parent !== null && step.parent < model.length && alive(step.parent) ? step.parent : null;
            const parentEntry = parent === null ? undefined : await store.lookup(model[parent].id);
            const { hash: _h, accessor: _a, ...fields } = tokenEntry(clock.t, {
              parentHash: parentEntry?.hash ?? null,
              parentNamespaceId: parentEntry ? 'root' : null,
              creationTtl: step.ttl,
              expireTime: clock.t + step.ttl * 1000,
            });
            const { id } = await store.create(fields);
            model.push({ id, parent, expireAt: clock.t + step.ttl * 1000, revoked: false });
          } else if (step.kind === 'revoke' || step.kind === 'orphan') {
            if (step.target >= model.length || !alive(step.target)) continue;
            const entry = await store.lookup(model[step.target].id);
            assert.ok(entry);
            if (step.kind === 'revoke') {
              await store.revokeTree(entry);
              for (const j of subtree(step.target)) model[j].revoked = true;
            } else {
              await store.revokeOrphan(entry);
              for (const m of model) if (m.parent === step.target && !m.revoked) m.parent = null;
              model[step.target].revoked = true;
            }
          } else {
            clock.t += step.seconds * 1000;
          }
          for (let i = 0; i < model.length; i++) {
            assert.equal((await store.lookup(model[i].id)) !== undefined, alive(i), `token ${i} after ${JSON.stringify(step)}`);
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
