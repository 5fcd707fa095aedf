import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dictionary, own } from '../../src/core/own.ts';

describe('own', () => {
  const table: Record<string, number> = { a: 1 };

  it('finds own entries only', () => {
    assert.equal(own(table, 'a'), 1);
    for (const inherited of ['constructor', 'valueOf', 'toString', 'hasOwnProperty', '__proto__']) assert.equal(own(table, inherited), undefined, inherited);
  });

  it('a dictionary keeps __proto__ as an ordinary key', () => {
    const d = dictionary<string>();
    d['__proto__'] = 'x';
    assert.equal(d['__proto__'], 'x');
    assert.deepEqual(Object.keys(d), ['__proto__']);
    assert.equal(Object.getPrototypeOf(d), null);
  });
});
