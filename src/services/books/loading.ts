// Storing a validated catalog in batches, with a progress bar on a terminal.
import cliProgress from 'cli-progress';
import type { CatalogVolume } from './domain/catalog-volume.ts';
import type { CatalogStore } from './catalog-store.ts';

/** Volumes per unit of work: large enough for few commits, small enough not to hold the writer long. */
const BATCH = 2000;

export interface LoadOptions {
  /** Shows a progress bar on stderr. */
  progress?: boolean;
  label?: string;
  /** Stops between two batches. */
  signal?: AbortSignal;
}

export async function storeVolumes(store: CatalogStore, volumes: CatalogVolume[], now: number, options: LoadOptions = {}): Promise<number> {
  const bar = options.progress
    ? new cliProgress.SingleBar(
        { format: `${options.label ?? 'loading books'} [{bar}] {percentage}% | {value}/{total} volumes`, hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(volumes.length, 0);
  try {
    for (let i = 0; i < volumes.length; i += BATCH) {
      options.signal?.throwIfAborted();
      await store.upsert(volumes.slice(i, i + BATCH), now);
      bar?.update(Math.min(i + BATCH, volumes.length));
    }
  } finally {
    bar?.stop();
  }
  return volumes.length;
}
