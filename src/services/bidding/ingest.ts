// Bulk ingestion: validated events go to the store in batches (each one transaction, pre-aggregated in memory).
import type { BidEvent } from './domain/events.ts';
import type { BiddingStore } from './store.ts';

/** Events per transaction: large enough to amortise commits, small enough to keep memory flat. */
export const BATCH_SIZE = 20_000;

/** Loads every event of `source`; `onBatch` hears how many have been stored so far. Returns the total. */
export async function ingestAll(
  store: BiddingStore,
  source: Iterable<BidEvent> | AsyncIterable<BidEvent>,
  keepEvents: boolean,
  onBatch?: (stored: number) => void,
): Promise<number> {
  let batch: BidEvent[] = [];
  let stored = 0;
  for await (const ev of source) {
    batch.push(ev);
    if (batch.length >= BATCH_SIZE) {
      await store.ingest(batch, keepEvents);
      stored += batch.length;
      batch = [];
      onBatch?.(stored);
    }
  }
  if (batch.length > 0) {
    await store.ingest(batch, keepEvents);
    stored += batch.length;
    onBatch?.(stored);
  }
  return stored;
}
