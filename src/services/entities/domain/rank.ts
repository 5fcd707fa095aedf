// Top-k ranking with an early stop. A score is popularity x match weight and a weight is at most 1, so once the
// next candidate's popularity is below the k-th best score found, no later candidate can enter the top k.
import type { Entity } from './entity.ts';

export interface Candidate {
  id: string;
  popularity: number;
}

export interface Ranked {
  entity: Entity;
  score: number;
}

const CHUNK = 100;

/**
 * `candidates` must be ordered by popularity, highest first. `fetch` loads documents for a chunk of ids;
 * `weigh` gives an entity's match weight in [0, 1] (0: no match).
 */
export async function topMatches(
  candidates: Candidate[],
  limit: number,
  fetch: (ids: string[]) => Promise<Entity[]>,
  weigh: (entity: Entity) => number,
): Promise<Ranked[]> {
  const best: Ranked[] = [];
  for (let i = 0; i < candidates.length; i += CHUNK) {
    if (best.length >= limit && candidates[i].popularity < best[limit - 1].score) break;
    for (const entity of await fetch(candidates.slice(i, i + CHUNK).map((c) => c.id))) {
      const weight = weigh(entity);
      if (weight > 0) best.push({ entity, score: scoreOf(entity.popularity, weight) });
    }
    best.sort(byScore);
    best.length = Math.min(best.length, Math.max(limit, 0));
  }
  return best;
}

export const scoreOf = (popularity: number | undefined, weight: number) => Math.round((popularity ?? 1) * weight * 1000) / 1000;

export const byScore = (a: Ranked, b: Ranked) => b.score - a.score || a.entity.id.localeCompare(b.entity.id);
