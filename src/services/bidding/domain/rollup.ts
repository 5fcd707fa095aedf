// Pre-aggregation of a batch of events into hourly counter rows, before they are added to the stored aggregates:
// a batch of many thousand events becomes a few thousand additive upserts.
import type { BidEvent } from './events.ts';
import { METRICS } from './vocabulary.ts';

export const HOUR_MS = 3_600_000;

export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** Dimensions of the coarse aggregate (every query that filters neither creative nor deal reads it). */
export const ROLLUP_KEYS = ['bidder', 'hour', 'account', 'format', 'environment', 'platform'] as const;
/** Dimensions of the detailed aggregate (account-level queries filtering a creative or a deal). */
export const DETAIL_KEYS = ['bidder', 'account', 'creative', 'deal', 'hour', 'format', 'environment', 'platform'] as const;
/** Dimensions of the per-deal aggregate (account-level queries filtering a deal but no creative). */
export const DEAL_KEYS = ['bidder', 'account', 'deal', 'hour', 'format', 'environment', 'platform'] as const;
/** Counter columns, in the order of METRICS and of the event outcome bits. */
export const COUNTER_COLUMNS = ['bids', 'in_auction', 'won', 'billed', 'measurable', 'viewable'] as const;

export interface RolledUp {
  /** Rows of ROLLUP_KEYS then COUNTER_COLUMNS, one per distinct key, sorted by key. */
  rollup: unknown[][];
  /** Rows of DETAIL_KEYS then COUNTER_COLUMNS. */
  detail: unknown[][];
  /** Rows of DEAL_KEYS then COUNTER_COLUMNS. */
  deals: unknown[][];
}

/** Sums the outcome counters of `events` per hour and dimension key. */
export function rollUp(events: Iterable<BidEvent>): RolledUp {
  // Detail rows hang under their coarse row, keyed by creative and deal: short keys, one coarse lookup per event.
  const coarse = new Map<string, { row: unknown[]; detail: Map<string, unknown[]>; deals: Map<string, unknown[]> }>();
  const n = METRICS.length;
  for (const ev of events) {
    const hour = hourOf(ev.at);
    const key = `${ev.bidder}\u0000${hour}\u0000${ev.account}\u0000${ev.format}\u0000${ev.environment}\u0000${ev.platform}`;
    let entry = coarse.get(key);
    if (!entry) {
      entry = { row: [ev.bidder, hour, ev.account, ev.format, ev.environment, ev.platform, 0, 0, 0, 0, 0, 0], detail: new Map(), deals: new Map() };
      coarse.set(key, entry);
    }
    const detailKey = `${ev.creative}\u0000${ev.deal}`;
    let detail = entry.detail.get(detailKey);
    if (!detail) {
      detail = [ev.bidder, ev.account, ev.creative, ev.deal, hour, ev.format, ev.environment, ev.platform, 0, 0, 0, 0, 0, 0];
      entry.detail.set(detailKey, detail);
    }
    let deal = entry.deals.get(ev.deal);
    if (!deal) {
      deal = [ev.bidder, ev.account, ev.deal, hour, ev.format, ev.environment, ev.platform, 0, 0, 0, 0, 0, 0];
      entry.deals.set(ev.deal, deal);
    }
    const row = entry.row;
    for (let bit = 0; bit < n; bit++) {
      if (ev.outcomes & (1 << bit)) {
        (row[6 + bit] as number)++;
        (detail[8 + bit] as number)++;
        (deal[7 + bit] as number)++;
      }
    }
  }
  // Sorted keys make concurrent loads lock rows in the same order (no deadlock between two PostgreSQL writers).
  const rollup: unknown[][] = [];
  const detail: unknown[][] = [];
  const deals: unknown[][] = [];
  for (const key of [...coarse.keys()].sort()) {
    const entry = coarse.get(key)!;
    rollup.push(entry.row);
    for (const k of [...entry.detail.keys()].sort()) detail.push(entry.detail.get(k)!);
    for (const k of [...entry.deals.keys()].sort()) deals.push(entry.deals.get(k)!);
  }
  return { rollup, detail, deals };
}
