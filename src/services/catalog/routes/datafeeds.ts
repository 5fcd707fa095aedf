// datafeeds.* and datafeedstatuses.*: feed registrations with a fetch schedule (a durable job per feed), fetchNow,
// and the status each fetch records per target.
import type { Kysely } from 'kysely';
import { GoogleError, notFound, required } from '../../../core/google/index.ts';
import type { Catalog } from '../catalog.ts';
import { FETCH_JOB, fetchJobKey } from '../datafeed-fetch.ts';
import { feedLabelRule, sameLabelAndCountry } from '../feed-label.ts';
import { randomNumericId } from '../ids.ts';
import { batchOperation } from '../layer/batch.ts';
import type { Call, Operation, RequestShape } from '../layer/operation.ts';
import type { CatalogStore } from '../store.ts';
import { listAnswer, pageRequest } from '../layer/paging.ts';
import { checkDestinations } from '../rules/destinations.ts';
import { checkSchedule, nextFetchAt } from '../rules/fetch-schedule.ts';
import { badRequest, country, httpUrl, language, maxLength, oneOf, requireValue } from '../wire/rules.ts';
import { bodyObject, checkWire } from '../wire/validate.ts';
import { COLUMN_DELIMITERS, CONTENT_TYPES, DATAFEED_BODY, DATAFEED_LIST_QUERY, DATAFEED_NAME_MAX, DATAFEED_STATUS_GET_QUERY, FILE_ENCODINGS, QUOTING_MODES } from '../schemas/datafeeds.ts';

const KIND = 'content#datafeed';

const feedNotFound = (id: string) => notFound(`Datafeed ${id} not found.`);

function datafeedDoc(body: unknown): Record<string, any> {
  const doc = checkWire<Record<string, any>>(bodyObject(body), 'Datafeed', 'datafeed');
  delete doc.kind;
  requireValue(doc.name, 'datafeed.name');
  maxLength(doc.name, DATAFEED_NAME_MAX, 'datafeed.name');
  requireValue(doc.fileName, 'datafeed.fileName');
  maxLength(doc.fileName, DATAFEED_NAME_MAX, 'datafeed.fileName');
  if (!/^[\w.-]+$/.test(doc.fileName)) throw badRequest('datafeed.fileName may hold letters, digits, ., - and _ only.');
  // Content API documents the type as required: no default stands in for it.
  requireValue(doc.contentType, 'datafeed.contentType');
  oneOf(doc.contentType, CONTENT_TYPES, 'datafeed.contentType');
  requireValue(doc.targets, 'datafeed.targets');
  (doc.targets as Array<Record<string, any>>).forEach((t, i) => {
    language(t.language, `datafeed.targets[${i}].language`, true);
    if (t.country === undefined && t.feedLabel === undefined) throw badRequest(`Required field missing: datafeed.targets[${i}].feedLabel (or country)`, 'required');
    country(t.country, `datafeed.targets[${i}].country`);
    feedLabelRule(t.feedLabel, `datafeed.targets[${i}].feedLabel`);
    sameLabelAndCountry(t.feedLabel, t.country, `datafeed.targets[${i}].feedLabel`, `datafeed.targets[${i}].country`);
    checkDestinations(t.includedDestinations, `datafeed.targets[${i}].includedDestinations`);
    checkDestinations(t.excludedDestinations, `datafeed.targets[${i}].excludedDestinations`);
  });
  if (doc.format) {
    if (doc.format.columnDelimiter !== undefined) oneOf(doc.format.columnDelimiter, COLUMN_DELIMITERS, 'datafeed.format.columnDelimiter');
    if (doc.format.fileEncoding !== undefined) oneOf(doc.format.fileEncoding, FILE_ENCODINGS, 'datafeed.format.fileEncoding');
    if (doc.format.quotingMode !== undefined) oneOf(doc.format.quotingMode, QUOTING_MODES, 'datafeed.format.quotingMode');
  }
  if (doc.fetchSchedule) {
    httpUrl(doc.fetchSchedule.fetchUrl, 'datafeed.fetchSchedule.fetchUrl', true);
    checkSchedule(doc.fetchSchedule, 'datafeed.fetchSchedule');
  }
  return doc;
}

/** The stored feed as the API shows it: the fetch password is write-only. */
function present(doc: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { kind: KIND, ...doc };
  if (out.fetchSchedule) {
    const { password: _password, ...schedule } = out.fetchSchedule;
    out.fetchSchedule = schedule;
  }
  return out;
}

/** Arms (or clears) the durable job that fetches the feed on its schedule. */
async function armSchedule(cat: Catalog, tx: Kysely<any>, merchantId: string, doc: Record<string, any>): Promise<void> {
  const s = doc.fetchSchedule;
  const key = fetchJobKey(merchantId, doc.id);
  if (!s?.fetchUrl || s.paused) {
    await cat.ctx.jobs.cancel(key, tx);
    return;
  }
  await cat.ctx.jobs.schedule({ service: 'catalog', kind: FETCH_JOB, runAt: nextFetchAt(s, cat.now()), payload: { merchantId, datafeedId: doc.id, scheduled: true }, key }, tx);
}

async function uniqueFileName(store: CatalogStore, merchantId: string, fileName: string, except?: string): Promise<void> {
  const feeds = (await store.resources(merchantId, 'datafeeds', { limit: 100_000 })).items;
  if (feeds.some((f) => f.id !== except && f.doc.fileName === fileName)) throw badRequest(`Another datafeed of merchant ${merchantId} uses the file name ${fileName}.`, 'duplicate');
}

const feedIdOf = (call: Call) => {
  const id = call.params.datafeedId;
  if (!id) throw badRequest('Required parameter: datafeedId', 'required');
  return id;
};

export function datafeedOperations(): Operation[] {
  const op = (name: string, verb: Operation['verb'], path: string, run: Operation['run'], request?: RequestShape): Operation => ({ method: `datafeeds.${name}`, verb, path, scope: 'merchant', request, run });

  const get = op('get', 'GET', '/{merchantId}/datafeeds/{datafeedId}', async (cat, call) => {
    const row = await cat.store.resource(call.merchant.id, 'datafeeds', feedIdOf(call));
    if (!row) throw feedNotFound(feedIdOf(call));
    return present(row.doc);
  });
  const list = op('list', 'GET', '/{merchantId}/datafeeds', async (cat, call) => {
    const req = pageRequest(call.query, 'maxResults', `datafeeds:${call.merchant.id}`);
    const page = await cat.store.resources(call.merchant.id, 'datafeeds', { after: req.after, limit: req.limit });
    return listAnswer('resources', page.items.map((r) => present(r.doc)), req.token(page), 'content#datafeedsListResponse');
  }, { query: DATAFEED_LIST_QUERY });
  const insert = op('insert', 'POST', '/{merchantId}/datafeeds', async (cat, call) => {
    const doc = datafeedDoc(call.body);
    doc.id = randomNumericId();
    await cat.write(async (s, tx) => {
      await uniqueFileName(s, call.merchant.id, doc.fileName);
      await s.putResource(call.merchant.id, 'datafeeds', doc.id, doc, cat.now());
      await armSchedule(cat, tx, call.merchant.id, doc);
    });
    return present(doc);
  }, { body: DATAFEED_BODY });
  const update = op('update', 'PUT', '/{merchantId}/datafeeds/{datafeedId}', async (cat, call) => {
    const id = feedIdOf(call);
    const bodyId = (call.body as { id?: unknown } | undefined)?.id;
    if (bodyId !== undefined && String(bodyId) !== id) throw badRequest('datafeed.id does not match the datafeedId parameter.');
    const doc = datafeedDoc(call.body);
    doc.id = id;
    await cat.write(async (s, tx) => {
      const existing = await s.resource(call.merchant.id, 'datafeeds', id);
      if (!existing) throw feedNotFound(id);
      // The password is write-only: an update without one keeps the stored one.
      if (doc.fetchSchedule && doc.fetchSchedule.password === undefined && existing.doc.fetchSchedule?.password !== undefined) doc.fetchSchedule.password = existing.doc.fetchSchedule.password;
      await uniqueFileName(s, call.merchant.id, doc.fileName, id);
      await s.putResource(call.merchant.id, 'datafeeds', id, doc, cat.now());
      await armSchedule(cat, tx, call.merchant.id, doc);
    });
    return present(doc);
  }, { body: DATAFEED_BODY });
  const remove = op('delete', 'DELETE', '/{merchantId}/datafeeds/{datafeedId}', async (cat, call) => {
    const id = feedIdOf(call);
    await cat.write(async (s, tx) => {
      if (!(await s.deleteResource(call.merchant.id, 'datafeeds', id))) throw feedNotFound(id);
      await s.deleteResource(call.merchant.id, 'datafeedstatuses', id);
      await cat.ctx.jobs.cancel(fetchJobKey(call.merchant.id, id), tx);
    });
    return undefined;
  });
  const fetchNow = op('fetchnow', 'POST', '/{merchantId}/datafeeds/{datafeedId}/fetchNow', async (cat, call) => {
    const id = feedIdOf(call);
    await cat.write(async (s, tx) => {
      const row = await s.resource(call.merchant.id, 'datafeeds', id);
      if (!row) throw feedNotFound(id);
      if (!row.doc.fetchSchedule?.fetchUrl) throw new GoogleError(400, `Datafeed ${id} has no fetch URL to fetch.`, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
      await markInProgress(s, call.merchant.id, row.doc, cat.now());
      await cat.ctx.jobs.schedule({ service: 'catalog', kind: FETCH_JOB, runAt: cat.now(), payload: { merchantId: call.merchant.id, datafeedId: id, scheduled: false }, key: `${fetchJobKey(call.merchant.id, id)}:now` }, tx);
    });
    // Run it promptly rather than at the scheduler's next tick.
    void cat.ctx.jobs.runDue().catch((err) => cat.ctx.log.error({ err }, 'datafeed fetch pass failed'));
    return { kind: 'content#datafeedsFetchNowResponse' };
  });

  const statusGet: Operation = {
    method: 'datafeedstatuses.get',
    verb: 'GET',
    path: '/{merchantId}/datafeedstatuses/{datafeedId}',
    scope: 'merchant',
    request: { query: DATAFEED_STATUS_GET_QUERY },
    async run(cat, call) {
      const id = feedIdOf(call);
      const feed = await cat.store.resource(call.merchant.id, 'datafeeds', id);
      if (!feed) throw feedNotFound(id);
      checkTargetParameters(feed.doc, call.query);
      const statuses = await cat.store.resource(call.merchant.id, 'datafeedstatuses', id);
      return statusFor(feed.doc, statuses?.doc, call.query);
    },
  };
  const statusList: Operation = {
    method: 'datafeedstatuses.list',
    verb: 'GET',
    path: '/{merchantId}/datafeedstatuses',
    scope: 'merchant',
    request: { query: DATAFEED_LIST_QUERY },
    async run(cat, call) {
      const req = pageRequest(call.query, 'maxResults', `datafeedstatuses:${call.merchant.id}`);
      const page = await cat.store.resources(call.merchant.id, 'datafeeds', { after: req.after, limit: req.limit });
      const items = await Promise.all(page.items.map(async (f) => statusFor(f.doc, (await cat.store.resource(call.merchant.id, 'datafeedstatuses', f.id))?.doc, {})));
      return listAnswer('resources', items, req.token(page), 'content#datafeedstatusesListResponse');
    },
  };

  return [
    get,
    list,
    insert,
    update,
    remove,
    fetchNow,
    statusGet,
    statusList,
    batchOperation({
      path: '/datafeeds/batch',
      method: 'datafeeds.custombatch',
      wire: 'DatafeedsCustomBatchRequest',
      kind: 'content#datafeedsCustomBatchResponse',
      // Content API's DatafeedsCustomBatchResponseEntry has no `kind`, unlike the products and accounts entries.
      params: ['merchantId', 'datafeedId'],
      methods: {
        get: { op: get, result: 'datafeed' },
        insert: { op: insert, body: 'datafeed', result: 'datafeed' },
        update: { op: update, body: 'datafeed', result: 'datafeed' },
        delete: { op: remove },
        fetchNow: { op: fetchNow },
      },
    }),
    batchOperation({
      path: '/datafeedstatuses/batch',
      method: 'datafeedstatuses.custombatch',
      wire: 'DatafeedstatusesCustomBatchRequest',
      kind: 'content#datafeedstatusesCustomBatchResponse',
      params: ['merchantId', 'datafeedId'],
      methods: { get: { op: statusGet, result: 'datafeedStatus' } },
    }),
  ];
}

/** The key of one target's status: its feed label (or country) and language. */
export const targetKey = (t: { country?: string; feedLabel?: string; language?: string }) => `${t.feedLabel ?? t.country}|${t.language}`;

async function markInProgress(s: CatalogStore, merchantId: string, feed: Record<string, any>, now: number): Promise<void> {
  const existing = (await s.resource(merchantId, 'datafeedstatuses', feed.id))?.doc ?? { targets: {} };
  const targets = { ...existing.targets };
  for (const t of feed.targets) targets[targetKey(t)] = { ...(targets[targetKey(t)] ?? {}), processingStatus: 'in progress' };
  await s.putResource(merchantId, 'datafeedstatuses', feed.id, { targets }, now);
}

const given = (value: unknown) => value !== undefined && value !== '';

/**
 * The target parameters of datafeedstatuses.get, as Content API documents them: `language` goes with `country` or
 * `feedLabel` (each needs the other), and a feed with several targets has one status each, so it needs them.
 */
function checkTargetParameters(feed: Record<string, any>, query: Record<string, unknown>): void {
  const place = given(query.country) || given(query.feedLabel);
  if (place && !given(query.language)) throw required('Required parameter: language (country and feedLabel need it).', 'language');
  if (given(query.language) && !place) throw required('Required parameter: feedLabel or country (language needs one).', 'feedLabel');
  if (!place && feed.targets.length > 1) {
    throw required(`Datafeed ${feed.id} has ${feed.targets.length} targets: name one with language and feedLabel (or country).`, 'feedLabel');
  }
}

function statusFor(feed: Record<string, any>, stored: Record<string, any> | undefined, query: Record<string, unknown>): Record<string, unknown> {
  const wanted = (feed.targets as Array<Record<string, any>>).find(
    (t) =>
      (query.country === undefined || t.country === query.country) &&
      (query.feedLabel === undefined || (t.feedLabel ?? t.country) === query.feedLabel) &&
      (query.language === undefined || t.language === query.language),
  );
  if (!wanted) throw notFound(`Datafeed ${feed.id} has no target for the given country, feed label and language.`);
  const s = stored?.targets?.[targetKey(wanted)] ?? { processingStatus: 'none' };
  const out: Record<string, unknown> = { kind: 'content#datafeedStatus', datafeedId: feed.id, ...s };
  if (wanted.country) out.country = wanted.country;
  if (wanted.feedLabel ?? wanted.country) out.feedLabel = wanted.feedLabel ?? wanted.country;
  out.language = wanted.language;
  return out;
}
