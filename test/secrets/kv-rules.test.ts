import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatDuration, parseBool, parseDurationSeconds, parseStringList } from '../../src/services/secrets/http/fields.ts';
import { childrenOf } from '../../src/services/secrets/storage/logical.ts';
import {
  DEFAULT_CONFIG,
  addVersion,
  checkCas,
  isDeleted,
  mergePatch,
  newMetadata,
  parseVersions,
  subkeys,
} from '../../src/services/secrets/kv/v2-rules.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('KV v2 rules', () => {
  it('never keeps more than max_versions, numbers versions consecutively and moves oldest_version as Vault does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 40 }), (max, writes) => {
        const meta = newMetadata(T0);
        meta.max_versions = max;
        for (let i = 1; i <= writes; i++) {
          const { version } = addVersion(meta, DEFAULT_CONFIG, T0 + i);
          assert.equal(version, i);
        }
        const kept = Object.keys(meta.versions).map(Number).sort((a, b) => a - b);
        assert.equal(kept.length, Math.min(max, writes));
        assert.equal(kept[kept.length - 1], writes);
        // Vault's window: oldest_version moves once the versions fill max_versions.
        assert.equal(meta.oldest_version, writes >= max ? kept[0] : 0);
      }),
    );
  });

  it('check-and-set accepts only the current version, 0 for a new key, and enforces cas_required', () => {
    const meta = newMetadata(T0);
    addVersion(meta, DEFAULT_CONFIG, T0);
    assert.doesNotThrow(() => checkCas(meta, DEFAULT_CONFIG, 1));
    assert.doesNotThrow(() => checkCas(meta, DEFAULT_CONFIG, '1'));
    assert.throws(() => checkCas(meta, DEFAULT_CONFIG, 0), /did not match/);
    assert.doesNotThrow(() => checkCas(undefined, DEFAULT_CONFIG, 0));
    assert.throws(() => checkCas(undefined, { ...DEFAULT_CONFIG, cas_required: true }, undefined), /required/);
    assert.throws(() => checkCas(meta, DEFAULT_CONFIG, 'x'), /parsing/);
  });

  it('delete_version_after sets a deletion time that the clock reaches', () => {
    const meta = newMetadata(T0);
    meta.delete_version_after = 60;
    addVersion(meta, { ...DEFAULT_CONFIG, delete_version_after: 3600 }, T0);
    const v = meta.versions['1']!;
    assert.equal(isDeleted(v, T0 + 59_000), false);
    assert.equal(isDeleted(v, T0 + 60_000), true);
  });

  it('merge patch follows RFC 7396', () => {
    assert.deepEqual(mergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } }), { a: 'z', c: { d: 'e' } });
    assert.deepEqual(mergePatch({ a: [1] }, { a: { b: 1 } }), { a: { b: 1 } });
    fc.assert(fc.property(fc.object(), (doc) => assert.deepEqual(mergePatch(doc, {}), doc)));
  });

  it('subkeys keep the structure and hide every value', () => {
    fc.assert(
      fc.property(fc.object(), (doc) => {
        const check = (original: unknown, shape: unknown): void => {
          if (original !== null && typeof original === 'object' && !Array.isArray(original)) {
            assert.deepEqual(Object.keys(shape as object), Object.keys(original));
            for (const [k, v] of Object.entries(original)) check(v, (shape as Record<string, unknown>)[k]);
          } else assert.equal(shape, null);
        };
        check(doc, subkeys(doc, 0));
      }),
    );
  });

  it('keeps keys named __proto__ as data, never as a prototype', () => {
    const doc = JSON.parse('{"__proto__": {"x": 1}, "a": 1}');
    const shape = subkeys(doc, 0) as Record<string, unknown>;
    assert.deepEqual(Object.keys(shape), ['__proto__', 'a']);
    assert.equal(Object.getPrototypeOf(shape), Object.prototype);
    const patched = mergePatch({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(patched), ['a', '__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(patched.polluted, undefined);
  });

  it('parses version lists from arrays and comma strings; empty is an error', () => {
    assert.deepEqual(parseVersions([1, '2']), [1, 2]);
    assert.deepEqual(parseVersions('3, 4'), [3, 4]);
    assert.throws(() => parseVersions([]), /No version number provided/);
    assert.throws(() => parseVersions(['x']), /invalid version/);
  });
});

describe('lenient field decoding and listing', () => {
  it('reads durations as seconds or Go strings and formats them back', () => {
    assert.equal(parseDurationSeconds('1h30m', 'ttl'), 5400);
    assert.equal(parseDurationSeconds(90, 'ttl'), 90);
    assert.equal(parseDurationSeconds('45', 'ttl'), 45);
    assert.equal(parseDurationSeconds('1.5h', 'ttl'), 5400);
    assert.throws(() => parseDurationSeconds('soon', 'ttl'), /invalid duration/);
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (s) => assert.equal(parseDurationSeconds(formatDuration(s), 'x'), s)));
  });

  it('reads booleans and lists the way Vault clients send them', () => {
    assert.equal(parseBool('true', 'x'), true);
    assert.equal(parseBool('0', 'x'), false);
    assert.throws(() => parseBool('yes', 'x'));
    assert.deepEqual(parseStringList('dev-policy, test-policy', 'p'), ['dev-policy', 'test-policy']);
  });

  it('lists immediate children with folders ending in a slash', () => {
    assert.deepEqual(childrenOf('a/', ['a/x', 'a/b/c', 'a/b/d', 'ab/z', 'a/']), ['b/', 'x']);
  });
});
