// Building the default graph into the database: derive every entity from the data packages, replace the previous
// build's entities (user-loaded ones stay), write in batches of units of work, and record what was built.
import cliProgress from 'cli-progress';
import type { ServiceContext } from '../../core/service.ts';
import type { Entity } from './domain/entity.ts';
import { isWorldId, worldGraphParts } from './domain/world-graph.ts';
import { deleteEntities, entityIds, writeEntities, writeMeta } from './store.ts';
import { readWorldSources, worldSourceVersions } from './world-sources.ts';

/** Entities per unit of work: few commits, yet no unit holds the writer (or, on SQLite, the event loop) for long. */
const BATCH = 2000;

export const DEFAULT_KEY = 'default';

/** What the meta row `default` records. */
export interface DefaultRecord {
  graph: 'world' | 'samples';
  minPopulation?: number;
  sources?: Record<string, string>;
  entities: number;
  builtAt: number;
}

export interface BuildOptions {
  minPopulation: number;
  /** Shows a progress bar on stderr. */
  progress: boolean;
  /** Stops the build between two batches (the graph is then built again at the next start). */
  signal?: AbortSignal;
}

/** Builds the world graph; resolves with the entities written once the last batch (and the record) committed. */
export async function buildWorld(ctx: ServiceContext, options: BuildOptions): Promise<Entity[]> {
  const sources = readWorldSources();
  const entities: Entity[] = [];
  for (const part of worldGraphParts(sources, { minPopulation: options.minPopulation })) {
    options.signal?.throwIfAborted();
    await yieldToOthers();
    entities.push(...part);
  }
  const built = new Set(entities.map((e) => e.id));
  const bar = options.progress
    ? new cliProgress.SingleBar(
        { format: 'building the entity graph [{bar}] {percentage}% | {value}/{total} entities | ETA {eta_formatted}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(entities.length, 0);
  try {
    // The previous build's entities that this one lacks go first; an empty graph needs no replacing at all.
    const empty = await ctx.db.write(async (tx) => {
      const stored = await entityIds(tx);
      await deleteEntities(tx, stored.filter((id) => isWorldId(id) && !built.has(id)));
      return stored.length === 0;
    });
    for (let i = 0; i < entities.length; i += BATCH) {
      options.signal?.throwIfAborted();
      const batch = entities.slice(i, i + BATCH);
      const last = i + BATCH >= entities.length;
      const now = ctx.clock.now();
      await ctx.db.write(async (tx) => {
        await writeEntities(tx, batch, now, empty);
        // The record commits with the last batch: a build cut short is simply built again at the next start.
        if (last) await writeMeta(tx, DEFAULT_KEY, JSON.stringify(worldRecord(options, entities.length, now)));
      });
      bar?.update(Math.min(i + BATCH, entities.length));
    }
  } finally {
    bar?.stop();
  }
  return entities;
}

/** The steps of a build run on the event loop every service shares: let pending requests through between them. */
export const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

function worldRecord(options: BuildOptions, entities: number, now: number): DefaultRecord {
  return { graph: 'world', minPopulation: options.minPopulation, sources: worldSourceVersions(), entities, builtAt: now };
}
