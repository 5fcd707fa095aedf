import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FieldsSyntaxError, applyFields, parseFields, type Selection } from '../../src/core/google/fields.ts';

const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,8}$/);

/** Non-empty selections without wildcards: each key maps to `true` or a nested selection. */
const selection: fc.Arbitrary<Selection> = fc.letrec<{ sel: Selection }>((tie) => ({
  sel: fc
    .uniqueArray(fc.tuple(name, fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(true as const), tie('sel'))), {
      minLength: 1,
      maxLength: 4,
      selector: ([k]) => k,
    })
    .map((entries) => new Map(entries)),
})).sel;

function print(sel: Selection): string {
  return [...sel].map(([k, v]) => (v === true ? k : `${k}(${print(v)})`)).join(',');
}

// Values as a JSON body parses them (plain prototypes, no -0).
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const json = fc.jsonValue({ maxDepth: 3 });
const object = fc.dictionary(name, json, { maxKeys: 8 }).map(plain);

describe('fields selector', () => {
  it('selecting * is the identity', () => {
    const all = parseFields('*');
    fc.assert(fc.property(fc.oneof(object, fc.array(object, { maxLength: 4 })), (value) => assert.deepEqual(applyFields(value, all), value)));
  });

  it('selecting top-level keys yields exactly the selected keys that are present', () => {
    fc.assert(
      fc.property(object, fc.uniqueArray(name, { minLength: 1, maxLength: 6 }), (value, keys) => {
        const out = applyFields(value, parseFields(keys.join(','))) as Record<string, unknown>;
        assert.deepEqual(Object.keys(out).sort(), keys.filter((k) => k in value).sort());
        for (const k of Object.keys(out)) assert.deepEqual(out[k], value[k]);
      }),
    );
  });

  it('printing a selection and parsing it again gives the same selection', () => {
    fc.assert(fc.property(selection, (sel) => assert.deepEqual(parseFields(print(sel)), sel)));
  });

  it('applying a selection twice is the same as once, element by element on arrays', () => {
    fc.assert(
      fc.property(selection, fc.array(object, { maxLength: 3 }), (sel, items) => {
        const once = applyFields(items, sel) as unknown[];
        assert.deepEqual(applyFields(once, sel), once);
        assert.deepEqual(once, items.map((i) => applyFields(i, sel)));
      }),
    );
  });

  it('a/b is a(b), repeated paths merge, and a whole field wins over a part of it', () => {
    assert.deepEqual(parseFields('a/b'), parseFields('a(b)'));
    assert.deepEqual(parseFields('a.b'), parseFields('a(b)'));
    assert.deepEqual(parseFields('errorGroupStats(group.groupId,count)'), parseFields('errorGroupStats(group(groupId),count)'));
    assert.deepEqual(parseFields('a(b),a(c)'), parseFields('a(b,c)'));
    assert.deepEqual(parseFields('a,a(b)'), parseFields('a'));
    assert.deepEqual(parseFields(' items( id , title ) ,nextPageToken'), parseFields('items(id,title),nextPageToken'));
    const value = { items: [{ id: 1, title: 't', extra: true }], nextPageToken: 'x', other: 2 };
    assert.deepEqual(applyFields(value, parseFields('items(id),nextPageToken')), { items: [{ id: 1 }], nextPageToken: 'x' });
    assert.deepEqual(applyFields(value, parseFields('items/*')), { items: [{ id: 1, title: 't', extra: true }] });
    assert.deepEqual(applyFields(value, parseFields('missing')), {});
  });

  it('rejects malformed selectors', () => {
    for (const text of ['', ' ', 'a(', 'a)', 'a,,b', 'a*', '(a)', 'a/', 'a.', '.a', 'a..b', 'a(b))', 'a b', 'a()']) {
      assert.throws(() => parseFields(text), FieldsSyntaxError, JSON.stringify(text));
    }
  });
});
