// Pure rules of the book library: contributor names, record mapping, catalog files, queries, shelves.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CatalogFileError, catalogBytes, parseCatalog, readCatalogFile, SHIPPED_CATALOG } from '../../src/services/books/catalog-file.ts';
import { authorsOf, parseContributor } from '../../src/services/books/domain/names.ts';
import { gutenbergVolume, type GutenbergRow } from '../../src/services/books/domain/gutenberg.ts';
import { openLibraryVolume, parseOpenLibraryLine, publishedDateOf } from '../../src/services/books/domain/open-library.ts';
import { parseVolumeQuery } from '../../src/services/books/domain/query.ts';
import { moveWithin, shelfNamed, SHELVES } from '../../src/services/books/domain/shelves.ts';
import { looksLikeVolumeId, volumeIdOf } from '../../src/services/books/domain/volume-id.ts';
import { RecordError } from '../../src/services/books/domain/record-error.ts';

const HEADER = 'Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves';
const row = (over: Partial<GutenbergRow> = {}): GutenbergRow => ({
  'Text#': '2701',
  Type: 'Text',
  Issued: '2001-07-01',
  Title: 'Moby-Dick; or, The Whale',
  Language: 'en',
  Authors: 'Melville, Herman, 1819-1891',
  Subjects: 'Whaling -- Fiction; Sea stories',
  LoCC: 'PS',
  Bookshelves: 'Best Books Ever Listings; Browsing: Literature',
  ...over,
});

describe('contributor names', () => {
  it('shows "First Last" without dates, expansions or titles', () => {
    const cases: Array<[string, string]> = [
      ['Melville, Herman, 1819-1891', 'Herman Melville'],
      ['Kennedy, John F. (John Fitzgerald), 1917-1963', 'John F. Kennedy'],
      ['Tennyson, Alfred Tennyson, Baron, 1809-1892', 'Alfred Tennyson'],
      ['Smith, Joseph, Jr., 1805-1844', 'Joseph Smith Jr.'],
      ['Malory, Thomas, Sir, -1471', 'Thomas Malory'],
      ['Homer, 751? BCE-651? BCE', 'Homer'],
      ['United States', 'United States'],
    ];
    for (const [entry, name] of cases) assert.equal(parseContributor(entry)?.name, name, entry);
    assert.deepEqual(parseContributor('Urquhart, Thomas, Sir, 1611-1660 [Translator]'), { name: 'Thomas Urquhart', role: 'Translator' });
    assert.equal(parseContributor(' , 1900-1950'), undefined);
    assert.deepEqual(parseContributor('Doe, Jane (Jane Ann) [Editor [ed.]'), { name: 'Jane Doe', role: 'Editor [ed.' });
    assert.deepEqual(parseContributor('Doe, (x) Jane (y [Ed] ] z'), { name: 'Jane (y [Ed] ] z Doe', role: undefined });
    // Unmatched brackets and long runs of spaces were scanned to the end from each of them: minutes for one entry.
    const spaces = ' '.repeat(200_000);
    assert.deepEqual(parseContributor(`Doe,${spaces}Jane${'('.repeat(200_000)}`), { name: `Jane${'('.repeat(200_000)} Doe`, role: undefined });
    assert.deepEqual(parseContributor(`Doe, Jane${'['.repeat(200_000)}x${spaces}`), { name: `Jane${'['.repeat(200_000)}x Doe`, role: undefined });
    assert.deepEqual(parseContributor(`Doe, Jane${spaces}[Translator]`), { name: 'Jane Doe', role: 'Translator' });
  });

  it('lists authors, or every contributor when none is plainly an author', () => {
    assert.deepEqual(authorsOf('Carroll, Lewis, 1832-1898; Tenniel, John, 1820-1914 [Illustrator]'), ['Lewis Carroll']);
    assert.deepEqual(authorsOf('Townsend, George Fyler, 1814-1900 [Translator]'), ['George Fyler Townsend']);
    assert.deepEqual(authorsOf(''), []);
  });

  it('never yields empty names or digits, whatever the entry', () => {
    fc.assert(
      fc.property(fc.string(), (entry) => {
        for (const name of authorsOf(entry)) {
          assert.ok(name.trim().length > 0);
          assert.ok(!/\d/.test(name));
        }
      }),
    );
  });
});

describe('Project Gutenberg records', () => {
  it('map to a free, public-domain books#volume with an EPUB link', () => {
    const v = gutenbergVolume(row({ Title: 'The Bill of Rights\nThe Ten Original Amendments', Language: 'de; en' }))!;
    assert.equal(v.id, volumeIdOf('gutenberg', '2701'));
    assert.equal(v.volumeInfo.title, 'The Bill of Rights');
    assert.equal(v.volumeInfo.subtitle, 'The Ten Original Amendments');
    assert.deepEqual(v.volumeInfo.authors, ['Herman Melville']);
    assert.equal(v.volumeInfo.language, 'de');
    assert.equal(v.volumeInfo.publishedDate, '2001-07-01');
    assert.deepEqual(v.volumeInfo.categories, ['Whaling -- Fiction', 'Sea stories', 'Best Books Ever Listings', 'Literature']);
    assert.deepEqual(v.volumeInfo.industryIdentifiers, [{ type: 'OTHER', identifier: 'GUTENBERG:2701' }]);
    assert.equal(v.saleInfo.saleability, 'FREE');
    assert.equal(v.accessInfo.publicDomain, true);
    assert.equal(v.accessInfo.viewability, 'ALL_PAGES');
    assert.deepEqual(v.accessInfo.epub, { isAvailable: true, downloadLink: 'https://www.gutenberg.org/ebooks/2701.epub3.images' });
    assert.deepEqual(v.accessInfo.pdf, { isAvailable: false });
  });

  it('skip items that are not texts and refuse bad fields', () => {
    assert.equal(gutenbergVolume(row({ Type: 'Sound' })), undefined);
    assert.throws(() => gutenbergVolume(row({ Subjects: 'a\u0000' })), /Subjects holds a NUL/);
    for (const bad of [{ 'Text#': 'x1' }, { 'Text#': '0' }, { Issued: '2001-13-45' }, { Issued: '' }, { Title: '' }, { Language: 'english' }, { Title: 'x'.repeat(1001) }, { Type: '' }]) {
      assert.throws(() => gutenbergVolume(row(bad)), RecordError, JSON.stringify(bad));
    }
  });
});

describe('Open Library records', () => {
  const edition = {
    key: '/books/OL7353617M',
    title: 'Fantastic Mr. Fox',
    subtitle: 'a story',
    authors: [{ key: '/authors/OL34184A', name: 'Roald Dahl' }],
    publishers: ['Puffin'],
    publish_date: 'October 1, 1988',
    languages: [{ key: '/languages/eng' }],
    subjects: ['Animals', 'Foxes'],
    isbn_10: ['0-14-032872-8'],
    isbn_13: ['9780140328721'],
    lccn: ['88-012345'],
    oclc_numbers: ['0019308495'],
    number_of_pages: 96,
    covers: [6498519],
    description: { type: '/type/text', value: 'A fox outwits three farmers.' },
  };

  it('map to a catalogue volume with industry identifiers and look-ups', () => {
    const v = openLibraryVolume(parseOpenLibraryLine(`/type/edition\t/books/OL7353617M\t4\t2010-03-11T23:51:36\t${JSON.stringify(edition)}`));
    assert.equal(v.id, volumeIdOf('openlibrary', 'OL7353617M'));
    assert.equal(v.volumeInfo.publishedDate, '1988-10-01');
    assert.equal(v.volumeInfo.language, 'en');
    assert.equal(v.volumeInfo.publisher, 'Puffin');
    assert.equal(v.volumeInfo.description, 'A fox outwits three farmers.');
    assert.deepEqual(
      v.volumeInfo.industryIdentifiers?.map((i) => i.type),
      ['ISBN_13', 'ISBN_10', 'OTHER', 'OTHER', 'OTHER'],
    );
    assert.deepEqual(v.lookups, [
      { kind: 'isbn', value: '9780140328721' },
      { kind: 'isbn', value: '0140328728' },
      { kind: 'lccn', value: '88012345' },
      { kind: 'oclc', value: '19308495' },
    ]);
    assert.equal(v.accessInfo.viewability, 'NO_PAGES');
    assert.equal(v.saleInfo.saleability, 'NOT_FOR_SALE');
    assert.deepEqual(openLibraryVolume(JSON.parse(JSON.stringify(edition))), v, 'a bare JSON line maps alike');
  });

  it('refuse records without a key or title, and ill-typed fields', () => {
    for (const bad of [{ key: undefined }, { key: '/people/x' }, { title: '' }, { title: 7 }, { isbn_13: '9780140328721' }, { number_of_pages: -1 }, { subjects: [1] }]) {
      assert.throws(() => openLibraryVolume({ ...edition, ...bad }), RecordError, JSON.stringify(bad));
    }
    assert.throws(() => parseOpenLibraryLine('{not json'), RecordError);
    assert.throws(() => openLibraryVolume({ ...edition, title: 'a\u0000b' }), /NUL/);
    assert.throws(() => openLibraryVolume([]), RecordError);
  });

  it('read publication dates as Books writes them', () => {
    assert.equal(publishedDateOf('1995'), '1995');
    assert.equal(publishedDateOf('March 1995'), '1995-03');
    assert.equal(publishedDateOf('c1995'), '1995');
    assert.equal(publishedDateOf('1995-03-05'), '1995-03-05');
    assert.equal(publishedDateOf('n.d.'), undefined);
  });
});

describe('catalog files', () => {
  it('read the shipped catalog: 7,535 texts, 124 other items skipped', async () => {
    const parsed = await parseCatalog(readCatalogFile(SHIPPED_CATALOG));
    assert.equal(parsed.volumes.length, 7535);
    assert.equal(parsed.skipped, 124);
    const ids = new Set(parsed.volumes.map((v) => v.id));
    assert.equal(ids.size, 7535, 'volume ids are unique');
    assert.ok([...ids].every(looksLikeVolumeId));
    const head = await parseCatalog(readCatalogFile(SHIPPED_CATALOG), 20);
    assert.equal(head.volumes.length + head.skipped, 20);
  });

  it('name the line of the first bad record, counting lines inside quoted fields', async () => {
    const csv = [HEADER, '1,Text,1971-12-01,"Two\nlines",en,,,,', '2,Text,1972-12-01,Fine,en,,,,', '3,Text,someday,Bad,en,,,,'].join('\n');
    await assert.rejects(parseCatalog(Buffer.from(csv)), (err: Error) => err instanceof CatalogFileError && /^line 5: Issued/.test(err.message));
    await assert.rejects(parseCatalog(Buffer.from(`${HEADER}\n1,Text,1971-12-01\n`)), /: line 2:/);
    await assert.rejects(parseCatalog(Buffer.from('Text#,Kind\n1,Text\n')), /: line 1: the header/);
    const lines = ['{"key":"/books/OL1M","title":"One"}', '', '{"key":"/books/OL2M"}'].join('\n');
    await assert.rejects(parseCatalog(Buffer.from(lines)), /: line 3: title is missing/);
    await assert.rejects(parseCatalog(Buffer.from('  \n')), /empty/);
  });

  it('accept gzip and a byte-order mark; a repeated record replaces the earlier one', async () => {
    const csv = `\uFEFF${HEADER}\n7,Text,1975-01-01,First,en,,,,\n7,Text,1975-01-01,Second,en,,,,\n`;
    const parsed = await parseCatalog(catalogBytes(gzipSync(Buffer.from(csv))));
    assert.deepEqual(
      parsed.volumes.map((v) => v.volumeInfo.title),
      ['Second'],
    );
  });
});

describe('volume ids', () => {
  it('are 12 URL-safe characters, stable and distinct per source', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e8 }), (n) => {
        const id = volumeIdOf('gutenberg', String(n));
        assert.ok(looksLikeVolumeId(id));
        assert.equal(volumeIdOf('gutenberg', String(n)), id);
        assert.notEqual(volumeIdOf('openlibrary', String(n)), id);
      }),
    );
  });
});

describe('the q parameter', () => {
  const NONE_EXCLUDED = { terms: [], lookups: [] };

  it('splits free words, phrases, field keywords and identifier look-ups', () => {
    assert.deepEqual(parseVolumeQuery('flowers+inauthor:keyes'), { terms: [{ text: 'flowers' }, { text: 'keyes', field: 'authors' }], lookups: [], excluded: NONE_EXCLUDED });
    assert.deepEqual(parseVolumeQuery('intitle:"pride and prejudice" subject:love "happy end"'), {
      terms: [{ text: 'pride and prejudice', field: 'title' }, { text: 'love', field: 'subjects' }, { text: 'happy end' }],
      lookups: [],
      excluded: NONE_EXCLUDED,
    });
    assert.deepEqual(parseVolumeQuery('isbn:978-0-14-032872-1 lccn:88-012345 oclc:ocm0019308495 inpublisher:puffin'), {
      terms: [{ text: 'puffin', field: 'publisher' }],
      lookups: [
        { kind: 'isbn', value: '9780140328721' },
        { kind: 'lccn', value: '88012345' },
        { kind: 'oclc', value: '19308495' },
      ],
      excluded: NONE_EXCLUDED,
    });
    assert.deepEqual(parseVolumeQuery('objective-c: primer'), { terms: [{ text: 'objective-c:' }, { text: 'primer' }], lookups: [], excluded: NONE_EXCLUDED });
  });

  it('takes a keyword named like an Object.prototype member as an unknown keyword (text)', () => {
    assert.deepEqual(parseVolumeQuery('constructor:war valueOf:"moby dick"'), { terms: [{ text: 'constructor war' }, { text: 'valueof moby dick' }], lookups: [], excluded: NONE_EXCLUDED });
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string(), (q) => void parseVolumeQuery(q)));
  });
});

describe('bookshelves', () => {
  it('are the fixed shelves, named by id or title', () => {
    assert.deepEqual(
      SHELVES.map((s) => s.id),
      [0, 1, 2, 3, 4, 5, 7, 8, 9],
    );
    assert.deepEqual(
      SHELVES.filter((s) => s.editable).map((s) => s.id),
      [0, 2, 3, 4],
    );
    assert.equal(shelfNamed('3')?.title, 'Reading now');
    assert.equal(shelfNamed('reading NOW')?.id, 3);
    assert.equal(shelfNamed('6'), undefined);
    assert.equal(shelfNamed('-1'), undefined);
  });

  it('move a volume to any position among the others, keeping every volume once', () => {
    assert.deepEqual(moveWithin(['a', 'b', 'c'], 'c', 0), ['c', 'a', 'b']);
    assert.deepEqual(moveWithin(['a', 'b', 'c'], 'a', 2), ['b', 'c', 'a']);
    assert.equal(moveWithin(['a', 'b', 'c'], 'a', 3), undefined);
    assert.equal(moveWithin(['a', 'b'], 'z', 0), undefined);
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 12 }), fc.nat(), fc.nat(), (order, pick, pos) => {
        const v = order[pick % order.length];
        const position = pos % order.length;
        const after = moveWithin(order, v, position)!;
        assert.equal(after[position], v);
        assert.deepEqual([...after].sort(), [...order].sort());
        assert.deepEqual(
          after.filter((x) => x !== v),
          order.filter((x) => x !== v),
        );
      }),
    );
  });
});
