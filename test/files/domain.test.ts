import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { dictionary } from '../../src/core/own.ts';
import { parseContentRange, parseRange } from '../../src/services/files/domain/range.ts';
import { atLeast, permissionIdForEmail, storedRole, strongest, wireRole, ROLES } from '../../src/services/files/domain/roles.ts';
import { readFilePatch } from '../../src/services/files/domain/file-input.ts';
import { parseOrderBy } from '../../src/services/files/domain/order-by.ts';
import { normaliseMime, fileExtension } from '../../src/services/files/domain/mime.ts';
import { applyFieldModifications, readModifications } from '../../src/services/files/domain/labels.ts';

describe('files domain rules', () => {
  it('answers a byte range inside the content, or unsatisfiable, for any size and range', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(20_000), fc.nat(20_000), (size, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const r = parseRange(`bytes=${lo}-${hi}`, size);
        if (lo >= size) assert.equal(r, 'unsatisfiable');
        else {
          assert.ok(r && r !== 'unsatisfiable');
          assert.equal(r.start, lo);
          assert.equal(r.end, Math.min(hi, size - 1) + 1);
        }
      }),
    );
    assert.deepEqual(parseRange('bytes=-3', 10), { start: 7, end: 10 });
    assert.deepEqual(parseRange('bytes=4-', 10), { start: 4, end: 10 });
    assert.equal(parseRange('items=1-2', 10), undefined);
    assert.equal(parseRange('bytes=5-2', 10), undefined);
  });

  it('reads Content-Range of resumable chunks and probes', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (a, len) => {
        const total = a + len + 1;
        assert.deepEqual(parseContentRange(`bytes ${a}-${a + len}/${total}`), { kind: 'chunk', start: a, end: a + len + 1, total });
      }),
    );
    assert.deepEqual(parseContentRange('bytes */100'), { kind: 'probe', total: 100 });
    assert.deepEqual(parseContentRange('bytes */*'), { kind: 'probe', total: undefined });
    assert.equal(parseContentRange('bytes 10-5/100'), undefined);
    assert.equal(parseContentRange('bytes 0-100/100'), undefined);
    assert.equal(parseContentRange('0-1/2'), undefined);
  });

  it('orders roles, maps commenter to the v2 wire shape and back, and gives stable permission ids', () => {
    fc.assert(
      fc.property(fc.subarray([...ROLES]), (roles) => {
        const best = strongest(roles);
        if (roles.length === 0) assert.equal(best, undefined);
        else for (const r of roles) assert.ok(atLeast(best, r));
      }),
    );
    for (const role of ROLES) {
      const w = wireRole(role);
      assert.equal(storedRole(w.role, w.additionalRoles), role);
    }
    assert.equal(permissionIdForEmail('A@Example.com'), permissionIdForEmail('a@example.com'));
    assert.match(permissionIdForEmail('a@example.com'), /^\d{20}$/);
  });

  it('validates the writable fields of a File and ignores read-only ones', () => {
    assert.deepEqual(readFilePatch({ title: 't', kind: 'drive#file', etag: 'x', labels: { starred: true } }), { title: 't', starred: true });
    assert.throws(() => readFilePatch([]), /JSON object/);
    assert.throws(() => readFilePatch({ description: 5 }), /description/);
    assert.throws(() => readFilePatch({ folderColorRgb: 'red' }), /folderColorRgb/);
    assert.deepEqual(parseOrderBy('folder,modifiedDate desc,title'), [
      { key: 'folder', desc: false },
      { key: 'modifiedDate', desc: true },
      { key: 'title', desc: false },
    ]);
    assert.throws(() => parseOrderBy('size desc'));
    assert.equal(normaliseMime('Text/Plain; charset=utf-8'), 'text/plain');
    assert.equal(normaliseMime('nonsense'), undefined);
    assert.deepEqual(fileExtension('archive.tar.gz'), { fullFileExtension: 'tar.gz', fileExtension: 'gz' });
    assert.equal(fileExtension('.bashrc'), undefined);
  });

  it('applies label field modifications', () => {
    const [mod] = readModifications({ labelModifications: [{ labelId: 'l', fieldModifications: [{ fieldId: 'a', setTextValues: ['x'] }, { fieldId: 'b', unsetValues: true }] }] });
    // A prototype-free record: field ids are the caller's names.
    assert.deepEqual(applyFieldModifications({ b: { valueType: 'text', values: ['old'] } }, mod), Object.assign(dictionary(), { a: { valueType: 'text', values: ['x'] } }));
    assert.throws(() => readModifications({}), /labelModifications/);
    assert.throws(() => readModifications({ labelModifications: [{ labelId: 'l', fieldModifications: [{ fieldId: 'a', setTextValues: ['x'], unsetValues: true }] }] }));
  });
});
