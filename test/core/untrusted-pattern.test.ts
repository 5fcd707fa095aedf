import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileUntrustedPattern, matchesWhole, search } from '../../src/core/untrusted-pattern.ts';

const compile = (source: string) => {
  const r = compileUntrustedPattern(source);
  if ('refused' in r) throw new Error(`refused ${source}: ${r.refused}`);
  return r;
};

describe('compileUntrustedPattern', () => {
  it('takes RE2 syntax and searches or matches whole values with it', () => {
    assert.ok(search(compile('^[A-Z]{2}\\d{4}$'), 'AB1234'));
    assert.ok(search(compile('colou?r'), 'a coloured box'));
    assert.ok(!matchesWhole(compile('colou?r'), 'a coloured box'));
    assert.ok(matchesWhole(compile('[0-9]{3}-[0-9]{4}'), '555-1234'));
    assert.ok(search(compile('(?i)^red'), 'RED shoe'), 'RE2 flags inside the pattern');
    assert.ok(search(compile('\\p{Greek}+'), 'alpha α'), 'Unicode classes');
    assert.ok(search(compile('^.$'), '😀'), 'a character is a code point, not a UTF-16 unit');
  });

  it('runs in time linear in the input, whatever the pattern', () => {
    // Each of these backtracks exponentially in JavaScript's engine: 2^50 steps would never finish.
    const long = 'a'.repeat(50_000);
    assert.equal(search(compile('(a+)+$'), long), true);
    assert.equal(search(compile('^(a+)+b$'), long), false);
    assert.equal(matchesWhole(compile('(a|a)*b'), long), false);
    assert.equal(matchesWhole(compile('(\\w+\\s?)*$'), `${long}!`), false);
  });

  it('refuses what RE2 lacks (lookaround, backreferences) and what does not parse, saying why', () => {
    for (const [p, why] of [
      ['a(?=b)', /unsupported Perl syntax/],
      ['(?<!a)b', /invalid named capture/],
      ['(a)\\1', /invalid escape sequence/],
      ['(', /missing closing \)/],
      ['[', /missing closing \]/],
      ['a{2,1}', /invalid repeat count/],
    ] as const) {
      const r = compileUntrustedPattern(p);
      assert.ok('refused' in r, p);
      assert.match(r.refused, why, p);
    }
  });

  it('hands out one compiled pattern per source', () => {
    assert.equal(compileUntrustedPattern('x+y'), compileUntrustedPattern('x+y'));
  });
});
