// Book library over the shipped catalog (7,535 Project Gutenberg volumes, loaded at first start): a free-text search,
// an author search, and volumes.get of volumes found by searches, each request a different volume.
import type { BenchScenario } from '../scenario.ts';

const KEY = 'bench-dev-api-key';

// Searches that find many volumes, ranked: the usual cost of a catalog query.
const FREE_TEXT = ['war and peace', 'adventures', 'history of england', 'love letters', 'sea stories', 'the island'];
const AUTHORS = ['twain', 'dickens', 'shakespeare', 'austen', 'doyle', 'verne', 'stevenson', 'wells'];

// Each connection goes through the paths in turn.
const each = (paths: string[]) => paths.map((path) => ({ path }));

const search = (q: string) => `/books/v1/volumes?key=${KEY}&q=${encodeURIComponent(q)}&maxResults=20`;

export const scenarios: BenchScenario[] = [
  {
    name: 'books.search',
    service: 'books',
    async setup() {
      const paths = FREE_TEXT.map(search);
      return { requests: each(paths) };
    },
  },
  {
    name: 'books.search.inauthor',
    service: 'books',
    async setup() {
      const paths = AUTHORS.map((a) => search(`inauthor:${a}`));
      return { requests: each(paths) };
    },
  },
  {
    name: 'books.volumes.get',
    service: 'books',
    async setup(env) {
      const ids: string[] = [];
      for (const q of [...FREE_TEXT, ...AUTHORS.map((a) => `inauthor:${a}`)]) {
        const res = await fetch(`${env.url('books')}${search(q)}`);
        if (!res.ok) throw new Error(`books bench search failed: ${res.status}`);
        const body = (await res.json()) as { items?: Array<{ id: string }> };
        ids.push(...(body.items ?? []).map((v) => v.id));
      }
      if (ids.length === 0) throw new Error('books bench: the catalog is empty');
      const paths = [...new Set(ids)].map((id) => `/books/v1/volumes/${id}?key=${KEY}`);
      return { requests: each(paths) };
    },
  },
];
