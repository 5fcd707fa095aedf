// filterSets.create, get, list and delete, at both levels.
import type { FastifyRequest } from 'fastify';
import { alreadyExists, decodePageToken, encodePageToken, invalidArgument, notFound, pageSize } from '../../../core/google/index.ts';
import { isUniqueViolation } from '../../../core/db/dialect.ts';
import type { Bidding } from '../bidding.ts';
import { parseFilterSet } from '../domain/filter-set.ts';
import { filterSetJson } from '../domain/filter-set-json.ts';
import { ownerName, type Owner } from '../domain/names.ts';
import { creationWindowProblem } from '../domain/time-range.ts';
import type { StoredFilterSet } from '../store.ts';
import { boolParam, queryOf } from './query.ts';

/** A transient filter set lives at least this long; a durable job removes it afterwards. */
export const TRANSIENT_MS = 3_600_000;
export const EXPIRE_JOB = 'expireTransientFilterSet';
export const expireJobKey = (name: string) => `bidding:transient:${name}`;

const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

export async function createFilterSet(req: FastifyRequest, b: Bidding, owner: Owner): Promise<unknown> {
  const query = queryOf(req, ['isTransient']);
  const transient = boolParam(query.isTransient, 'isTransient', 'is_transient');
  const body = req.body;
  const parsed = parseFilterSet(body, owner);
  const now = b.ctx.clock.now();
  const outsideWindow = creationWindowProblem(parsed.range, now, b.timeZone);
  if (outsideWindow) throw invalidArgument(outsideWindow);
  // filterSetId is output only: the value sent is ignored, the answer carries the one given, as get answers it.
  const { filterSetId: _ignored, ...submitted } = body as Record<string, unknown>;
  const stored = filterSetJson(submitted);
  const name = parsed.name;
  // A transient filter set past its hour is gone even if its removal job has not run yet: free the name.
  await b.store.deleteExpired(name, now);
  let id: number;
  try {
    id = await b.store.insertFilterSet({ name, owner: ownerName(owner), body: stored, transient, expiresAt: transient ? now + TRANSIENT_MS : null, createdAt: now });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(`Filter set ${name} already exists.`);
    throw err;
  }
  if (transient) await b.ctx.jobs.schedule({ service: 'bidding', kind: EXPIRE_JOB, runAt: now + TRANSIENT_MS, payload: { name }, key: expireJobKey(name) });
  return view({ id, body: stored });
}

export async function getFilterSet(req: FastifyRequest, b: Bidding, name: string): Promise<unknown> {
  queryOf(req, []);
  const fs = await b.store.getFilterSet(name, b.ctx.clock.now());
  if (!fs) throw notFound();
  return view(fs);
}

export async function listFilterSets(req: FastifyRequest, b: Bidding, owner: Owner): Promise<unknown> {
  const query = queryOf(req, ['pageSize', 'pageToken']);
  const size = pageSize(query.pageSize, DEFAULT_PAGE, MAX_PAGE);
  const owned = ownerName(owner);
  const after = query.pageToken ? decodePageToken<number>(query.pageToken, `filterSets:${owned}`) : 0;
  const rows = await b.store.listFilterSets(owned, Number(after) || 0, size + 1, b.ctx.clock.now());
  const page = rows.slice(0, size);
  const out: { filterSets: unknown[]; nextPageToken?: string } = { filterSets: page.map(view) };
  if (rows.length > size) out.nextPageToken = encodePageToken(page[page.length - 1].id, `filterSets:${owned}`);
  return out;
}

export async function deleteFilterSet(req: FastifyRequest, b: Bidding, name: string): Promise<unknown> {
  queryOf(req, []);
  const fs = await b.store.getFilterSet(name, b.ctx.clock.now());
  if (!fs || !(await b.store.deleteFilterSet(name))) throw notFound();
  if (fs.transient) await b.ctx.jobs.cancel(expireJobKey(name));
  return {};
}

/** A stored filter set as get and list show it: as submitted, plus its numeric id. */
const view = (fs: Pick<StoredFilterSet, 'id' | 'body'>) => ({ ...fs.body, filterSetId: String(fs.id) });
