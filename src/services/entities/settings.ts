// `services.entities` settings: which default graph a fresh data directory gets, and what memory documents may use.
import { cacheBudgetOf, type CacheBudget } from '../../core/cache.ts';

export const GRAPHS = ['world', 'samples', 'empty'] as const;
export type GraphChoice = (typeof GRAPHS)[number];

export interface EntitySettings {
  /** world: built from the data packages; samples: the 30 sample entities; empty: nothing. */
  graph: GraphChoice;
  /** Smallest city population the world graph takes (the data starts at 1,000). */
  minPopulation: number;
  /** Documents kept parsed in memory on SQLite. */
  documentCacheBudget: CacheBudget;
  /** Search answers kept serialised on SQLite, by path and query. */
  answerCacheBudget: CacheBudget;
}

export const DEFAULT_DOCUMENT_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 32 * 1024 * 1024 };
export const DEFAULT_ANSWER_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 16 * 1024 * 1024 };

const KNOWN = new Set(['graph', 'minPopulation', 'documentCacheBudget', 'answerCacheBudget', 'seed']);

export function readSettings(raw: Record<string, unknown>): EntitySettings {
  for (const key of Object.keys(raw)) if (!KNOWN.has(key)) throw new Error(`services.entities.${key} is not a setting (known: graph, minPopulation, documentCacheBudget, answerCacheBudget)`);
  // `seed: false` is the older way to start empty.
  const graph = raw.graph ?? (raw.seed === false ? 'empty' : 'world');
  if (!GRAPHS.includes(graph as GraphChoice)) throw new Error(`services.entities.graph must be one of ${GRAPHS.join(', ')}`);
  const minPopulation = raw.minPopulation ?? 0;
  if (typeof minPopulation !== 'number' || !Number.isInteger(minPopulation) || minPopulation < 0) {
    throw new Error('services.entities.minPopulation must be a whole number of at least 0');
  }
  const documentCacheBudget = cacheBudgetOf(raw.documentCacheBudget, DEFAULT_DOCUMENT_CACHE_BUDGET, 'services.entities.documentCacheBudget');
  const answerCacheBudget = cacheBudgetOf(raw.answerCacheBudget, DEFAULT_ANSWER_CACHE_BUDGET, 'services.entities.answerCacheBudget');
  return { graph: graph as GraphChoice, minPopulation, documentCacheBudget, answerCacheBudget };
}
