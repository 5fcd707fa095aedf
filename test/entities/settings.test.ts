import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSettings } from '../../src/services/entities/settings.ts';

describe('entity search settings', () => {
  it('default to the world graph with every city', () => {
    assert.deepEqual(readSettings({}), { graph: 'world', minPopulation: 0 });
    assert.deepEqual(readSettings({ graph: 'samples' }), { graph: 'samples', minPopulation: 0 });
    assert.deepEqual(readSettings({ seed: false }), { graph: 'empty', minPopulation: 0 }, 'the older way to start empty');
    assert.deepEqual(readSettings({ minPopulation: 50_000 }), { graph: 'world', minPopulation: 50_000 });
  });

  it('refuse what they do not know, naming the setting', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ graph: 'everything' }, /services\.entities\.graph must be one of world, samples, empty/],
      [{ minPopulation: -1 }, /minPopulation must be a whole number/],
      [{ minPopulation: '1000' }, /minPopulation must be a whole number/],
      [{ graphs: 'world' }, /services\.entities\.graphs is not a setting/],
    ];
    for (const [settings, message] of cases) assert.throws(() => readSettings(settings), message);
  });
});
