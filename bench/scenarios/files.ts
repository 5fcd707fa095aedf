// File storage: metadata get, files.list with a `q` over 100,000 files, and 1 MB uploads and downloads (MB/s equals
// req/s for those two). Seeding writes the 100,000 rows in bulk; the upload and download go through HTTP.
import { filesServiceOf } from '../../src/services/files/index.ts';
import { seedFiles } from '../../src/services/files/seed.ts';
import type { BenchEnv, BenchScenario, RequestFactory } from '../scenario.ts';

const TOKEN = 'bench-dev-token';
const EMAIL = 'developer@twinstack.local';
const MB = 1024 * 1024;
const FILES = Number(process.env.FILES_BENCH_FILES ?? 100_000);
const auth = { authorization: `Bearer ${TOKEN}` };

async function call(env: BenchEnv, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(`${env.url('files')}${path}`, { ...init, headers: { ...auth, ...((init.headers as Record<string, string>) ?? {}) } });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`files ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

const oneMb = (seed: number) => {
  const data = Buffer.alloc(MB, seed % 251);
  data.writeUInt32BE(seed, 0);
  return data;
};

/** Each upload different bytes (runs in the load generator). */
export const uploads: RequestFactory = () => {
  let n = 0;
  return (req) => ({ ...req, body: oneMb(++n) });
};

export const scenarios: BenchScenario[] = [
  {
    name: 'files.get metadata',
    service: 'files',
    async setup(env) {
      const file = await call(env, '/storage/v2/files', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'bench.txt' }) });
      return { requests: [{ path: `/storage/v2/files/${file.id}` }], headers: auth };
    },
  },
  {
    name: `files.list q over ${FILES} files`,
    service: 'files',
    async setup(env) {
      await call(env, '/storage/v2/about');
      const running = env.rt.services.get('files')!;
      const svc = filesServiceOf(running.ctx)!;
      await seedFiles(svc, { email: EMAIL, count: FILES, title: (i) => `report-${i}.txt` });
      const q = encodeURIComponent("title contains 'report-4242' and trashed = false and mimeType != 'application/vnd.google-apps.folder'");
      return { requests: [{ path: `/storage/v2/files?q=${q}&maxResults=20` }], headers: auth };
    },
    async extra(env) {
      const q = encodeURIComponent("title contains 'report-4242'");
      const found = await call(env, `/storage/v2/files?q=${q}&maxResults=100`);
      return { files: FILES, matches: found.items.length };
    },
  },
  {
    name: 'files.insert 1 MB media upload',
    service: 'files',
    connections: 4,
    async setup() {
      return {
        requests: [
          {
            method: 'POST',
            path: '/upload/storage/v2/files?uploadType=media',
            headers: { ...auth, 'content-type': 'application/octet-stream' },
            computedBy: { module: import.meta.url, factory: 'uploads' },
          },
        ],
      };
    },
    async extra() {
      return { bytesPerRequest: MB, note: 'MB/s = req/s' };
    },
  },
  {
    name: 'files.get alt=media 1 MB download',
    service: 'files',
    connections: 4,
    async setup(env) {
      const res = await fetch(`${env.url('files')}/upload/storage/v2/files?uploadType=media`, { method: 'POST', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: oneMb(0) });
      const file = await res.json();
      return { requests: [{ path: `/storage/v2/files/${file.id}?alt=media` }], headers: auth };
    },
    async extra() {
      return { bytesPerRequest: MB, note: 'MB/s = req/s' };
    },
  },
];
