import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WEIGHTS, indexTerms, matchWeight } from '../../src/services/entities/domain/match.ts';
import { normalize } from '../../src/services/entities/domain/normalize.ts';
import { byScore, scoreOf, topMatches } from '../../src/services/entities/domain/rank.ts';

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

describe('entity matching', () => {
  it('normalises case, accents and punctuation', () => {
    assert.equal(normalize('  Zürich—Airport!! '), 'zurich airport');
    assert.equal(normalize('Jung-ho KANG'), 'jung ho kang');
  });

  it('an exact name always matches at full weight, whatever its case', () => {
    fc.assert(fc.property(name, (n) => assert.equal(matchWeight(n.toUpperCase(), { names: [n], aliases: [] }, false), WEIGHTS.exactName)));
  });

  it('prefix matching only adds matches: never removes one or lowers its weight', () => {
    fc.assert(
      fc.property(name, name, (query, n) => {
        const terms = { names: [n], aliases: [] };
        assert.ok(matchWeight(query, terms, true) >= matchWeight(query, terms, false));
      }),
    );
  });

  it('every matching name is reachable through the term index', () => {
    fc.assert(
      fc.property(name, name, fc.boolean(), (query, n, prefix) => {
        if (matchWeight(query, { names: [n], aliases: [] }, prefix) === 0) return;
        const terms = indexTerms([n]);
        const words = normalize(query).split(' ');
        const last = words[words.length - 1];
        const exact = prefix ? words.slice(0, -1) : words;
        assert.ok(exact.every((w) => terms.includes(w)), `${query} -> ${n}`);
        if (prefix) assert.ok(terms.some((t) => t.startsWith(last)), `${query} -> ${n}`);
      }),
    );
  });
});

describe('top-k ranking with early stop', () => {
  it('finds exactly the top k of a brute-force ranking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ popularity: fc.integer({ min: 0, max: 1000 }), weight: fc.constantFrom(0, 0.4, 0.6, 1) }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 30 }),
        async (rows, limit) => {
          const entities = rows.map((r, i) => ({ id: `/g/e${String(i).padStart(4, '0')}`, types: [], names: { en: 'x' }, popularity: r.popularity }));
          const weights = new Map(entities.map((e, i) => [e.id, rows[i].weight]));
          const candidates = entities.map((e) => ({ id: e.id, popularity: e.popularity })).sort((a, b) => b.popularity - a.popularity || a.id.localeCompare(b.id));
          const byId = new Map(entities.map((e) => [e.id, e]));
          const got = await topMatches(candidates, limit, async (ids) => ids.map((id) => byId.get(id)!), (e) => weights.get(e.id)!);
          const expected = entities
            .filter((e) => weights.get(e.id)! > 0)
            .map((e) => ({ entity: e, score: scoreOf(e.popularity, weights.get(e.id)!) }))
            .sort(byScore)
            .slice(0, limit);
          assert.deepEqual(got.map((r) => [r.entity.id, r.score]), expected.map((r) => [r.entity.id, r.score]));
        },
      ),
      { numRuns: 200 },
    );
  });
});
