// An esbuild plugin for bundles of the TypeScript sources: a file that finds a neighbour through `import.meta.url`,
// `import.meta.dirname` or `import.meta.filename` (a data file, the read worker, a fixture) must still find it once
// bundled, so those become its own source location: relative to the bundle, so the checkout can move, when the
// bundle is one file at the top of `outdir`; absolute when files land at several depths (the tests' build, made again
// before each run).
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const META = /import\.meta\.(url|dirname|filename)\b/g;

/**
 * `folders`: the source folders whose .ts files are rewritten; `outdir`: where a one-file bundle is written, or
 * undefined for absolute locations.
 */
export function sourceLocation(folders, outdir) {
  const filter = new RegExp(`[\\\\/](${folders.join('|')})[\\\\/].*\\.ts$`);
  return {
    name: 'source-import-meta-location',
    setup(b) {
      b.onLoad({ filter }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (!META.test(text)) return undefined;
        META.lastIndex = 0;
        const url = outdir
          ? `new URL(${JSON.stringify(relative(outdir, args.path).split('\\').join('/'))}, import.meta.url)`
          : `new URL(${JSON.stringify(pathToFileURL(args.path).href)})`;
        const meta = {
          url: `(${url}.href)`,
          filename: `(__fileURLToPath(${url}))`,
          dirname: `(__dirname_of(__fileURLToPath(${url})))`,
        };
        return { contents: text.replace(META, (_, field) => meta[field]), loader: 'ts' };
      });
    },
  };
}

/** Defines what the rewritten expressions call; goes in the bundle's banner. */
export const SOURCE_LOCATION_BANNER =
  "import { fileURLToPath as __fileURLToPath } from 'node:url';\nimport { dirname as __dirname_of } from 'node:path';";
