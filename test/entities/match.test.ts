import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WEIGHTS, indexTerms, matchWeight } from '../../src/services/entities/domain/match.ts';
import { normalize } from '../../src/services/entities/domain/normalize.ts';
import type { Entity } from '../../src/services/entities/domain/entity.ts';
import { byScore, scoreOf } from '../../src/services/entities/domain/rank.ts';
import { SearchIndex, type IndexQuery } from '../../src/services/entities/domain/search-index.ts';

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
        // Without prefix each query word is an indexed word; with prefix each starts one.
        for (const w of normalize(query).split(' ')) assert.ok(terms.some((t) => (prefix ? t.startsWith(w) : t === w)), `${query} -> ${n}`);
      }),
    );
  });
});

describe('the search index', () => {
  const entityArb = fc.record({
    name: name,
    alias: fc.option(name, { nil: undefined }),
    fr: fc.option(name, { nil: undefined }),
    popularity: fc.integer({ min: 0, max: 50 }),
    type: fc.constantFrom('City', 'Country', 'Person'),
  });
  const toEntity = (r: { name: string; alias?: string; fr?: string; popularity: number; type: string }, i: number): Entity => ({
    id: `/g/e${i}`,
    types: [r.type],
    names: r.fr ? { en: r.name, fr: r.fr } : { en: r.name },
    ...(r.alias ? { aliases: { en: [r.alias] } } : {}),
    popularity: r.popularity,
  });
  /** What the index must answer: every entity weighed, ranked, cut at the limit. */
  const bruteForce = (entities: Entity[], q: IndexQuery) =>
    entities
      .filter((e) => q.types.length === 0 || ['Thing', ...e.types].some((t) => q.types.includes(t)))
      .map((e) => {
        const names = q.languages.map((l) => e.names[l]).filter((n): n is string => n !== undefined);
        const aliases = q.languages.flatMap((l) => e.aliases?.[l] ?? []);
        return { id: e.id, score: scoreOf(e.popularity, matchWeight(q.query, { names, aliases }, q.prefix)) };
      })
      .filter((r) => r.score > 0)
      .sort(byScore)
      .slice(0, q.limit);
  const queryArb = fc.record({
    query: fc.oneof(name, word.map((w) => w.slice(0, 2))),
    prefix: fc.boolean(),
    languages: fc.constantFrom<string[]>(['en'], ['fr'], ['en', 'fr']),
    types: fc.constantFrom<string[]>([], ['City'], ['Thing'], ['Country', 'Person']),
    limit: fc.integer({ min: 1, max: 10 }),
  });

  it('answers exactly the brute-force ranking, also after replacements and deletions', () => {
    fc.assert(
      fc.property(fc.array(entityArb, { maxLength: 120 }), fc.array(fc.tuple(fc.nat(119), fc.option(entityArb, { nil: undefined })), { maxLength: 30 }), queryArb, fc.integer({ min: 1, max: 8 }), (rows, changes, q, deltaLimit) => {
        const entities = new Map(rows.map((r, i) => [`/g/e${i}`, toEntity(r, i)]));
        // A small delta limit folds changes into the base segment as the test goes.
        const index = new SearchIndex(entities.values(), { deltaLimit });
        for (const [i, change] of changes) {
          const id = `/g/e${i}`;
          if (change) {
            const e = toEntity(change, i);
            entities.set(id, e);
            index.upsert([e]);
          } else {
            entities.delete(id);
            index.remove(id);
          }
        }
        // Zero-popularity entities score 0 and are left out on both sides.
        const expected = bruteForce([...entities.values()], q);
        const got = index.search(q).filter((r) => r.score > 0);
        assert.deepEqual(got, expected);
        assert.equal(index.size, entities.size);
      }),
      { numRuns: 300 },
    );
  });

  it('finds words by accent-less, case-insensitive prefix', () => {
    const index = new SearchIndex([{ id: '/g/sp', types: ['City'], names: { en: 'São Paulo' }, popularity: 10 }]);
    assert.deepEqual(index.search({ query: 'SAO pau', prefix: true, languages: ['en'], types: [], limit: 5 }).map((r) => r.id), ['/g/sp']);
    assert.deepEqual(index.search({ query: 'sao pau', prefix: false, languages: ['en'], types: [], limit: 5 }), []);
  });
});
