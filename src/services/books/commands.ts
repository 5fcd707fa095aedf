// `twinstack books load <file>`: validate a catalog file, then add its volumes to the configured database.
import type { Command } from 'commander';
import type { ServiceContext } from '../../core/service.ts';
import { CatalogFileError, parseCatalog, readCatalogFile } from './catalog-file.ts';
import { CatalogStore } from './catalog-store.ts';
import { storeVolumes } from './loading.ts';

type Open = () => Promise<{ ctx: ServiceContext; close(): Promise<void> }>;

export function booksCommands(group: Command, open: Open): void {
  group
    .command('load <file>')
    .description('add the volumes of a catalog file: Project Gutenberg CSV (pg_catalog.csv) or Open Library dump lines, plain or .gz')
    .action(async (file: string) => {
      let parsed;
      try {
        parsed = await parseCatalog(readCatalogFile(file));
      } catch (err) {
        if (err instanceof CatalogFileError) throw new Error(`${file}: ${err.message}; nothing was loaded`);
        throw err;
      }
      const { ctx, close } = await open();
      try {
        const store = new CatalogStore(ctx.db);
        const started = performance.now();
        const loaded = await storeVolumes(store, parsed.volumes, ctx.clock.now(), { progress: true });
        const seconds = (performance.now() - started) / 1000;
        const skipped = parsed.skipped ? `, skipped ${parsed.skipped} items that are not books` : '';
        console.log(`loaded ${loaded} volumes in ${seconds.toFixed(1)} s${skipped} (${await store.count()} in the catalog)`);
      } finally {
        await close();
      }
    });
}
