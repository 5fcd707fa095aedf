// Building the default graph into the database: derive every entity from the data packages, write them in batches
// of units of work, remove the previous build's entities this one lacks (user-loaded ones stay), and record what was
// built.
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
  /** Called with each batch once it is committed (the caller indexes it): no batch is kept after its turn. */
  onBatch?: (entities: Entity[]) => void;
}

/**
 * Builds the world graph a batch at a time, as the parts are derived (so the whole graph is never held at once);
 * resolves with the number of entities written once the last unit (removing the previous build's entities that this
 * one lacks, and recording the build) committed.
 */
export async function buildWorld(ctx: ServiceContext, options: BuildOptions): Promise<number> {
  const sources = readWorldSources();
  const bar = options.progress
    ? new cliProgress.SingleBar(
        { format: 'building the entity graph [{bar}] {percentage}% | {value}/{total} entities | ETA {eta_formatted}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  // The total is known at the end; until then the places, languages, currencies and cities stand for it.
  const cities = sources.cities.filter((c) => c.population >= options.minPopulation).length;
  bar?.start(Object.keys(sources.continents).length + sources.countries.length + Object.keys(sources.languages).length + Object.keys(sources.currencies).length + cities, 0);
  const built = new Set<string>();
  try {
    // An empty graph needs no replacing at all.
    const stored = new Set(await ctx.db.write((tx) => entityIds(tx)));
    const write = async (batch: Entity[]) => {
      options.signal?.throwIfAborted();
      const now = ctx.clock.now();
      await ctx.db.write((tx) => writeEntities(tx, batch, now, stored.size === 0));
      for (const e of batch) built.add(e.id);
      options.onBatch?.(batch);
      bar?.update(built.size);
    };
    let pending: Entity[] = [];
    for (const part of worldGraphParts(sources, { minPopulation: options.minPopulation })) {
      await yieldToOthers();
      pending.push(...part);
      for (; pending.length >= BATCH; pending = pending.slice(BATCH)) await write(pending.slice(0, BATCH));
    }
    if (pending.length) await write(pending);
    options.signal?.throwIfAborted();
    // The record commits with the removal of what the previous build had and this one lacks: a build cut short is
    // simply built again at the next start.
    const now = ctx.clock.now();
    await ctx.db.write(async (tx) => {
      await deleteEntities(tx, [...stored].filter((id) => isWorldId(id) && !built.has(id)));
      await writeMeta(tx, DEFAULT_KEY, JSON.stringify(worldRecord(options, built.size, now)));
    });
    bar?.setTotal(built.size);
    bar?.update(built.size);
  } finally {
    bar?.stop();
  }
  return built.size;
}

/** The steps of a build run on the event loop every service shares: let pending requests through between them. */
export const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

function worldRecord(options: BuildOptions, entities: number, now: number): DefaultRecord {
  return { graph: 'world', minPopulation: options.minPopulation, sources: worldSourceVersions(), entities, builtAt: now };
}
