// The durable job that fetches a datafeed over HTTP, parses it (TSV or XML) for each target, upserts the products it
// holds, removes the feed's products it no longer lists, and records the status with per-line errors and warnings.
// A scheduled run arms the next one.
import type { Job } from '../../core/jobs.ts';
import type { ServiceContext } from '../../core/service.ts';
import { catalogOf, type Catalog } from './catalog.ts';
import { datafeedStatusErrors, parseFeed, type FeedIssue } from './domain/datafeed-format.ts';
import { deleteProduct, normaliseProduct, restIdOf, saveProduct } from './products.ts';
import { nextFetchAt } from './rules/fetch-schedule.ts';
import { isApiError } from '../../core/errors.ts';

export const FETCH_JOB = 'datafeed-fetch';
export const fetchJobKey = (merchantId: string, datafeedId: string) => `catalog:${FETCH_JOB}:${merchantId}:${datafeedId}`;

/** Feeds larger than this are refused rather than read into memory. */
const MAX_FEED_BYTES = 64 * 1024 * 1024;

const ENCODINGS: Record<string, string> = { 'utf-8': 'utf-8', 'utf-16be': 'utf-16be', 'utf-16le': 'utf-16le', 'latin-1': 'latin1' };

interface Fetched {
  body?: string;
  error?: string;
}

async function download(cat: Catalog, feed: Record<string, any>): Promise<Fetched> {
  const s = feed.fetchSchedule;
  const headers: Record<string, string> = { 'user-agent': 'twinstack-catalog-fetcher' };
  if (s.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${s.username}:${s.password ?? ''}`).toString('base64')}`;
  try {
    const res = await fetch(s.fetchUrl, { headers, signal: AbortSignal.timeout(cat.settings.fetchTimeoutMs), redirect: 'follow' });
    if (!res.ok) return { error: `The feed URL answered HTTP ${res.status}.` };
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_FEED_BYTES) return { error: `The feed file is larger than ${MAX_FEED_BYTES} bytes.` };
    return { body: new TextDecoder(ENCODINGS[feed.format?.fileEncoding ?? 'utf-8'] ?? 'utf-8').decode(bytes) };
  } catch (err) {
    return { error: `The feed could not be fetched: ${(err as Error).message}` };
  }
}

const fetchFailure = (message: string): FeedIssue => ({ severity: 'error', code: 'fetch_error', message: 'Fetch failed', detail: message, lineNumber: 0, value: message });

export async function runDatafeedFetch(job: Job, ctx: ServiceContext): Promise<void> {
  const cat = catalogOf(ctx);
  const { merchantId, datafeedId, scheduled } = job.payload as { merchantId: string; datafeedId: string; scheduled: boolean };
  const feed = (await cat.store.resource(merchantId, 'datafeeds', datafeedId))?.doc;
  if (!feed || !feed.fetchSchedule?.fetchUrl) return;
  const fetched = await download(cat, feed);
  const format = /\.xml$/i.test(feed.fileName) ? 'xml' : undefined;
  const channel = feed.contentType === 'local products' ? 'local' : 'online';
  const now = cat.now();
  const statuses: Record<string, unknown> = {};
  const listed = new Set<string>();
  const parsedTargets = (feed.targets as Array<Record<string, any>>).map((t) => {
    const key = `${t.feedLabel ?? t.country}|${t.language}`;
    if (fetched.error !== undefined) return { key, t, errors: [fetchFailure(fetched.error)], warnings: [] as FeedIssue[], products: [], itemsTotal: 0 };
    const parsed = parseFeed(fetched.body!, { contentLanguage: t.language, targetCountry: t.country, feedLabel: t.feedLabel, channel, format });
    return { key, t, errors: [...parsed.errors], warnings: parsed.warnings, products: parsed.products, itemsTotal: parsed.itemsTotal };
  });
  await cat.write(async (s, tx) => {
    for (const target of parsedTargets) {
      let valid = 0;
      for (const { lineNumber, product } of target.products) {
        try {
          const normal = normaliseProduct({ ...product, includedDestinations: product.includedDestinations ?? target.t.includedDestinations, excludedDestinations: product.excludedDestinations ?? target.t.excludedDestinations });
          if (normal.includedDestinations === undefined) delete normal.includedDestinations;
          if (normal.excludedDestinations === undefined) delete normal.excludedDestinations;
          await saveProduct(cat, s, tx, merchantId, normal, { feedId: datafeedId, source: 'feed', now });
          listed.add(restIdOf(normal));
          valid++;
        } catch (err) {
          if (!isApiError(err)) throw err;
          target.errors.push({ severity: 'error', code: 'validation/invalid_value', message: 'Invalid item', detail: err.message, lineNumber, itemId: product.offerId ?? undefined });
        }
      }
      statuses[target.key] = {
        processingStatus: fetched.error !== undefined ? 'failure' : 'success',
        itemsTotal: String(target.itemsTotal),
        itemsValid: String(valid),
        errors: datafeedStatusErrors(target.errors),
        warnings: datafeedStatusErrors(target.warnings),
        lastUploadDate: new Date(now).toISOString(),
      };
    }
    // A successful fetch replaces the feed's products: those it no longer lists are removed.
    if (fetched.error === undefined) {
      for (const { id } of await s.productsOfFeed(merchantId, datafeedId)) if (!listed.has(id)) await deleteProduct(cat, s, tx, merchantId, id);
    }
    await s.putResource(merchantId, 'datafeedstatuses', datafeedId, { targets: statuses }, now);
    const current = await s.resource(merchantId, 'datafeeds', datafeedId);
    const schedule = current?.doc.fetchSchedule;
    if (scheduled && schedule?.fetchUrl && !schedule.paused) {
      await ctx.jobs.schedule({ service: 'catalog', kind: FETCH_JOB, runAt: nextFetchAt(schedule, now), payload: { merchantId, datafeedId, scheduled: true }, key: fetchJobKey(merchantId, datafeedId) }, tx);
    }
  });
}
