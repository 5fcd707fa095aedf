// Compiles every test file, with the sources they import, into JavaScript under dist/test/ before the suite runs.
// Each test file runs in a process of its own; loading hundreds of TypeScript modules through a run-time loader cost
// every one of those processes seconds. Modules two test files share go into shared chunks, so each is still one
// module instance per process, as with the sources. Packages stay in node_modules.
import { rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SOURCE_LOCATION_BANNER, sourceLocation } from './source-location.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'test');

const files = (await readdir(join(root, 'test'), { recursive: true })).filter((f) => f.endsWith('.test.ts')).map((f) => join('test', f));

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: files,
  outdir,
  outbase: 'test',
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  banner: { js: SOURCE_LOCATION_BANNER },
  plugins: [sourceLocation(['src', 'test', 'bench'])],
  sourcemap: 'inline',
  logLevel: 'warning',
});
