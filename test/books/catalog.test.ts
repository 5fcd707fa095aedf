// The shipped catalog, loaded at first start: known facts of Project Gutenberg's records through HTTP and the
// googleapis Books client; and `twinstack books load`.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import { Command } from 'commander';
import { manifest } from '../../src/services/books/index.ts';
import { volumeIdOf } from '../../src/services/books/domain/volume-id.ts';
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { DEV_API_KEY, booksClient, startBooks } from './helpers.ts';

const SHIPPED_VOLUMES = 7535;
const HEADER = 'Text#,Type,Issued,Title,Language,Authors,Subjects,LoCC,Bookshelves';

for (const database of DATABASES) {
  describe(`books shipped catalog (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      // No settings: the default is the shipped catalog.
      t = await startTestRuntime({ services: ['books'], database });
    });
    after(async () => t.close());

    it('loads every text of the shipped catalog at first start, once', async () => {
      const health = await call(`${t.adminUrl}/health`);
      assert.equal(health.body.services.books.ok, true);
      assert.equal((await call(`${t.adminUrl}/services/books/volumes`)).body.total, SHIPPED_VOLUMES);
      await t.restart();
      assert.equal((await call(`${t.adminUrl}/services/books/volumes`)).body.total, SHIPPED_VOLUMES);
    });

    it('finds famous works with their authors', async () => {
      const books = booksClient(t, { apiKey: DEV_API_KEY });
      const cases: Array<[string, string, string]> = [
        ['pride and prejudice', 'Pride and Prejudice', 'Jane Austen'],
        ['moby dick whale', 'Moby Dick; Or, The Whale', 'Herman Melville'],
        ['intitle:"alice\'s adventures in wonderland"', "Alice's Adventures in Wonderland", 'Lewis Carroll'],
        ['inauthor:shelley frankenstein', 'Frankenstein; Or, The Modern Prometheus', 'Mary Wollstonecraft Shelley'],
      ];
      for (const [q, title, author] of cases) {
        const res = await books.volumes.list({ q, maxResults: 5 });
        const hit = res.data.items?.find((v) => v.volumeInfo?.title === title);
        assert.ok(hit, `${q}: ${res.data.items?.map((v) => v.volumeInfo?.title).join(' | ')}`);
        assert.ok(hit.volumeInfo?.authors?.includes(author), `${q}: ${hit.volumeInfo?.authors}`);
        assert.equal(hit.accessInfo?.publicDomain, true);
        assert.equal(hit.saleInfo?.saleability, 'FREE');
      }
    });

    it('serves a volume under the id derived from its ebook number', async () => {
      const books = booksClient(t, { apiKey: DEV_API_KEY });
      const res = await books.volumes.get({ volumeId: volumeIdOf('gutenberg', '1342') });
      assert.equal(res.data.volumeInfo?.title, 'Pride and Prejudice');
      assert.deepEqual(res.data.volumeInfo?.authors, ['Jane Austen']);
      assert.deepEqual(res.data.volumeInfo?.industryIdentifiers, [{ type: 'OTHER', identifier: 'GUTENBERG:1342' }]);
      assert.equal(res.data.accessInfo?.epub?.downloadLink, 'https://www.gutenberg.org/ebooks/1342.epub3.images');
      assert.equal(res.data.volumeInfo?.language, 'en');
      assert.ok(res.data.volumeInfo?.categories?.length);
      assert.ok(res.data.volumeInfo?.categories?.every((c) => !c.startsWith('Browsing:')));
    });

    it('restricts by language across the catalog', async () => {
      const french = await books().volumes.list({ q: 'inpublisher:gutenberg', langRestrict: 'fr', maxResults: 40 });
      assert.ok((french.data.totalItems ?? 0) > 10);
      assert.ok(french.data.items?.every((v) => v.volumeInfo?.language === 'fr'));
      const all = await books().volumes.list({ q: 'inpublisher:gutenberg', maxResults: 1 });
      assert.equal(all.data.totalItems, SHIPPED_VOLUMES);
    });

    const books = () => booksClient(t, { apiKey: DEV_API_KEY });
  });

  // The command runs in this process on a running runtime's context, as `twinstack books load` runs it on the
  // configured database.
  describe(`twinstack books load (${database})`, () => {
    let t: TestRuntime;
    const dir = mkdtempSync(join(tmpdir(), 'twinstack-books-cli-'));
    const load = async (file: string) => {
      const program = new Command().exitOverride();
      manifest.commands!(program.command('books'), async () => ({ ctx: t.rt.services.get('books')!.ctx, close: async () => {} }));
      const lines: string[] = [];
      const log = mock.method(console, 'log', (line: string) => void lines.push(line));
      try {
        await program.parseAsync(['books', 'load', file], { from: 'user' });
      } finally {
        log.mock.restore();
      }
      return lines.join('\n');
    };
    before(async () => {
      t = await startBooks(database, 'none');
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('refuses a file with a bad record, naming its line, and loads nothing', async () => {
      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, `${HEADER}\n1,Text,1971-12-01,Fine,en,,,,\n2,Text,1972-12-01,,en,,,,\n`);
      await assert.rejects(load(bad), /bad\.csv: line 3: Title is empty; nothing was loaded/);
      assert.equal((await call(`${t.adminUrl}/services/books/volumes`)).body.total, 0);
    });

    it('loads a gzip file, skipping items that are not books', async () => {
      const good = join(dir, 'good.csv.gz');
      const csv = `${HEADER}\n1,Text,1971-12-01,The Declaration,en,"Jefferson, Thomas, 1743-1826",,,\n2,Sound,1972-12-01,A Recording,en,,,,\n3,Text,1973-11-01,"An Address\nIts Subtitle",en,,,,\n`;
      writeFileSync(good, gzipSync(csv));
      assert.match(await load(good), /loaded 2 volumes in .* s, skipped 1 items that are not books \(2 in the catalog\)/);
      const books = booksClient(t, { apiKey: DEV_API_KEY });
      const got = await books.volumes.get({ volumeId: volumeIdOf('gutenberg', '3') });
      assert.equal(got.data.volumeInfo?.subtitle, 'Its Subtitle');
      assert.deepEqual((await books.volumes.get({ volumeId: volumeIdOf('gutenberg', '1') })).data.volumeInfo?.authors, ['Thomas Jefferson']);
      await assert.rejects(books.volumes.get({ volumeId: volumeIdOf('gutenberg', '2') }), (err: any) => err.status === 404);
    });
  });
}
