import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileUntrustedPattern } from '../../src/core/untrusted-pattern.ts';

const outcome = (source: string, re2 = true) => {
  const r = compileUntrustedPattern(source, 'u', { re2 });
  return r instanceof RegExp ? 'ok' : r;
};

describe('compileUntrustedPattern', () => {
  it('takes ordinary patterns, classes and single repetitions', () => {
    for (const p of ['^[A-Z]{2}\\d{4}$', '\\p{L}+', 'colou?r', 'foo.*bar.*baz', '[0-9]{3}-[0-9]{4}', '[(?=]', '\\\\1']) assert.equal(outcome(p), 'ok', p);
  });

  it('refuses nested repetitions, whose backtracking can take exponential time', () => {
    for (const p of ['(a+)+$', '(\\w+\\s?)*$', '((ab)*c)*', '(x{1,9}){1,9}']) assert.equal(outcome(p), 'nested-repetition', p);
  });

  it('refuses lookaround and backreferences where the language is RE2, and takes them where it is not', () => {
    for (const p of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '(a)\\1', '(?<n>a)\\k<n>']) {
      assert.equal(outcome(p), 'unsupported', p);
      assert.equal(outcome(p, false), 'ok', p);
    }
  });

  it('refuses what does not compile', () => {
    for (const p of ['(', '[', 'a{2,1}']) assert.equal(outcome(p), 'invalid', p);
  });
});
