import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { wildcardMatch } from '../../src/core/wildcard.ts';

const like = (pattern: string, text: string) => wildcardMatch(pattern, text, '%', '_');

/** The same matching by regular expression, the obvious (and, on hostile patterns, exponential) way. */
function byRegExp(pattern: string, text: string): boolean {
  let source = '';
  for (const ch of pattern) source += ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 'su').test(text);
}

describe('wildcardMatch', () => {
  it('matches whole values with runs and single characters', () => {
    assert.ok(like('%hat', 'Blue hat'));
    assert.ok(!like('%hat', 'Blue hats'));
    assert.ok(like('B_ue%', 'Blue hat'));
    assert.ok(like('%', ''));
    assert.ok(!like('_', ''));
    assert.ok(like('_', '😀'), 'one character is one code point');
    assert.ok(like('a%b%c', 'axxbyyc'));
    assert.ok(!like('a%b%c', 'axxbyy'));
    assert.ok(wildcardMatch('dev-*-ro', 'dev-team-a-ro', '*'));
    assert.ok(!wildcardMatch('dev-*-ro', 'dev-team-a-rw', '*'));
    assert.ok(wildcardMatch('*', 'anything', '*'));
    assert.ok(wildcardMatch('a_b', 'a_b', '*'), 'without `one`, `_` is itself');
    assert.ok(!wildcardMatch('a_b', 'axb', '*'));
  });

  it('agrees with the regular expression over small alphabets', () => {
    const pattern = fc.array(fc.constantFrom('a', 'b', '%', '_'), { maxLength: 8 }).map((a) => a.join(''));
    const text = fc.array(fc.constantFrom('a', 'b', 'é'), { maxLength: 10 }).map((a) => a.join(''));
    fc.assert(fc.property(pattern, text, (p, t) => assert.equal(like(p, t), byRegExp(p, t), `${p} ~ ${t}`)), { numRuns: 2000 });
  });

  it('answers patterns that make a backtracking engine try every split', () => {
    // By regular expression this takes hours: each `%` may end at any of 150 places.
    assert.equal(like('%a'.repeat(30) + '%b', 'a'.repeat(150)), false);
    assert.equal(like('%a'.repeat(30) + '%b', `${'a'.repeat(150)}b`), true);
  });
});
