// Pre-aggregation of a batch of events into hourly counts per final stage and reason (see stages.ts): what
// impressionMetrics and the breakdown collections read, one additive upsert per distinct key and batch.
import { reasonOf, stageOf, type BidEvent } from './events.ts';
import { hourOf } from './rollup.ts';
import { STAGE } from './stages.ts';

/** Dimensions of the coarse outcome aggregate (queries without creative or deal filters and breakdowns). */
export const OUTCOME_KEYS = ['bidder', 'hour', 'account', 'format', 'environment', 'platform', 'stage', 'reason'] as const;
/**
 * Dimensions of the detailed outcome aggregate: by creative, deal and detail, led by the stage and reason so that a
 * breakdown of one creative status (filteredBids creatives and details) reads one key range.
 */
export const OUTCOME_DETAIL_KEYS = ['bidder', 'stage', 'reason', 'hour', 'account', 'creative', 'deal', 'detail', 'format', 'environment', 'platform'] as const;

/** The narrow aggregates: funnel counters per coarse key, stage counts without format/environment/platform, and filtered bids per creative and per detail. */
export const FUNNEL_KEYS = ['bidder', 'hour', 'account', 'format', 'environment', 'platform'] as const;
export const FUNNEL_COUNTERS = ['available', 'matched', 'requested', 'responded', 'with_bids'] as const;
export const LEAN_KEYS = ['bidder', 'stage', 'hour', 'account', 'reason'] as const;
export const FILTERED_BY_CREATIVE_KEYS = ['bidder', 'reason', 'hour', 'account', 'creative'] as const;
export const FILTERED_BY_DETAIL_KEYS = ['bidder', 'reason', 'hour', 'account', 'detail'] as const;

export interface RolledUpOutcomes {
  /** Rows of OUTCOME_KEYS then the count, sorted by key. */
  outcomes: unknown[][];
  /** Rows of OUTCOME_DETAIL_KEYS then the count, sorted by key. */
  details: unknown[][];
  /** Rows of FUNNEL_KEYS then FUNNEL_COUNTERS. */
  funnel: unknown[][];
  /** Rows of LEAN_KEYS then the count. */
  lean: unknown[][];
  /** Rows of FILTERED_BY_CREATIVE_KEYS (resp. DETAIL) then the count: filtered bids naming a creative (a detail). */
  byCreative: unknown[][];
  byDetail: unknown[][];
}

/** Counts `events` per hour, dimensions, stage and reason. */
export function rollUpOutcomes(events: Iterable<BidEvent>): RolledUpOutcomes {
  const coarse = new Map<string, unknown[]>();
  const detailed = new Map<string, unknown[]>();
  const funnel = new Map<string, unknown[]>();
  const lean = new Map<string, unknown[]>();
  const byCreative = new Map<string, unknown[]>();
  const byDetail = new Map<string, unknown[]>();
  const count = (rows: Map<string, unknown[]>, key: string, row: () => unknown[]) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = row()));
    (r[r.length - 1] as number)++;
  };
  for (const ev of events) {
    const hour = hourOf(ev.at);
    const stage = stageOf(ev);
    const reason = reasonOf(ev);
    const key = `${ev.bidder}\u0000${hour}\u0000${ev.account}\u0000${ev.format}\u0000${ev.environment}\u0000${ev.platform}\u0000${stage}\u0000${reason}`;
    let row = coarse.get(key);
    if (!row) coarse.set(key, (row = [ev.bidder, hour, ev.account, ev.format, ev.environment, ev.platform, stage, reason, 0]));
    (row[8] as number)++;
    const detailKey = `${key}\u0000${ev.creative}\u0000${ev.deal}\u0000${ev.detail}`;
    let detail = detailed.get(detailKey);
    if (!detail) {
      detail = [ev.bidder, stage, reason, hour, ev.account, ev.creative, ev.deal, ev.detail, ev.format, ev.environment, ev.platform, 0];
      detailed.set(detailKey, detail);
    }
    (detail[11] as number)++;

    const dims = `${ev.bidder}\u0000${hour}\u0000${ev.account}\u0000${ev.format}\u0000${ev.environment}\u0000${ev.platform}`;
    let f = funnel.get(dims);
    if (!f) funnel.set(dims, (f = [ev.bidder, hour, ev.account, ev.format, ev.environment, ev.platform, 0, 0, 0, 0, 0]));
    // Counter i counts the events that reached stage i or later (available, matched, requested, responded, bid).
    for (let i = 0; i < FUNNEL_COUNTERS.length && i <= stage; i++) (f[6 + i] as number)++;
    count(lean, `${ev.bidder}\u0000${stage}\u0000${hour}\u0000${ev.account}\u0000${reason}`, () => [ev.bidder, stage, hour, ev.account, reason, 0]);
    if (stage === STAGE.bidFiltered) {
      const at = `${ev.bidder}\u0000${reason}\u0000${hour}\u0000${ev.account}`;
      if (ev.creative) count(byCreative, `${at}\u0000${ev.creative}`, () => [ev.bidder, reason, hour, ev.account, ev.creative, 0]);
      if (ev.detail) count(byDetail, `${at}\u0000${ev.detail}`, () => [ev.bidder, reason, hour, ev.account, ev.detail, 0]);
    }
  }
  // Sorted rows make concurrent loads lock aggregate rows in the same order (no deadlock between PostgreSQL writers).
  return {
    outcomes: sortedRows(coarse),
    details: sortedRows(detailed),
    funnel: sortedRows(funnel),
    lean: sortedRows(lean),
    byCreative: sortedRows(byCreative),
    byDetail: sortedRows(byDetail),
  };
}

const sortedRows = (rows: Map<string, unknown[]>): unknown[][] => [...rows.keys()].sort().map((k) => rows.get(k)!);
