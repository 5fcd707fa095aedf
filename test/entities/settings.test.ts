import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_ANSWER_CACHE_BUDGET, DEFAULT_DOCUMENT_CACHE_BUDGET, readSettings } from '../../src/services/entities/settings.ts';

const cache = { documentCacheBudget: DEFAULT_DOCUMENT_CACHE_BUDGET, answerCacheBudget: DEFAULT_ANSWER_CACHE_BUDGET };

describe('entity search settings', () => {
  it('default to the world graph with every city', () => {
    assert.deepEqual(readSettings({}), { graph: 'world', minPopulation: 0, ...cache });
    assert.deepEqual(readSettings({ graph: 'samples' }), { graph: 'samples', minPopulation: 0, ...cache });
    assert.deepEqual(readSettings({ seed: false }), { graph: 'empty', minPopulation: 0, ...cache }, 'the older way to start empty');
    assert.deepEqual(readSettings({ minPopulation: 50_000 }), { graph: 'world', minPopulation: 50_000, ...cache });
    assert.deepEqual(readSettings({ documentCacheBudget: { entries: 5 } }).documentCacheBudget, { ...DEFAULT_DOCUMENT_CACHE_BUDGET, entries: 5 });
    assert.deepEqual(readSettings({ answerCacheBudget: { bytes: 1024 } }).answerCacheBudget, { ...DEFAULT_ANSWER_CACHE_BUDGET, bytes: 1024 });
  });

  it('refuse what they do not know, naming the setting', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ graph: 'everything' }, /services\.entities\.graph must be one of world, samples, empty/],
      [{ minPopulation: -1 }, /minPopulation must be a whole number/],
      [{ minPopulation: '1000' }, /minPopulation must be a whole number/],
      [{ graphs: 'world' }, /services\.entities\.graphs is not a setting/],
      [{ documentCacheBudget: { entries: 0 } }, /services\.entities\.documentCacheBudget must be \{ entries, bytes \}/],
      [{ answerCacheBudget: { bytes: -1 } }, /services\.entities\.answerCacheBudget must be \{ entries, bytes \}/],
    ];
    for (const [settings, message] of cases) assert.throws(() => readSettings(settings), message);
  });
});
