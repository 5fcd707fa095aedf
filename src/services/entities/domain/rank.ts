// Scores and the best k of them. A score is popularity x match weight and a weight is at most 1, so a search that
// visits candidates in popularity order can stop once the next one's best possible score is below the k-th found.

export interface Scored {
  id: string;
  score: number;
}

export const scoreOf = (popularity: number | undefined, weight: number) => Math.round((popularity ?? 1) * weight * 1000) / 1000;

/** Highest score first, then id: the order of results. */
export const byScore = (a: Scored, b: Scored) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Keeps the best `limit` scored ids seen so far. */
export class TopK {
  readonly #limit: number;
  readonly #items: Scored[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(limit, 0);
  }

  add(item: Scored): void {
    const items = this.#items;
    if (items.length >= this.#limit && byScore(item, items[items.length - 1]) >= 0) return;
    let i = items.length;
    while (i > 0 && byScore(item, items[i - 1]) < 0) i--;
    items.splice(i, 0, item);
    if (items.length > this.#limit) items.pop();
  }

  /** True when no candidate whose score is at most `bound` can enter any more. */
  closedBelow(bound: number): boolean {
    return this.#items.length >= this.#limit && bound < this.#items[this.#items.length - 1].score;
  }

  results(): Scored[] {
    return [...this.#items];
  }
}
