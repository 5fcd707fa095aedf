// Admin routes under /services/bidding on the admin listener: accounts and their tokens, and bid event ingestion.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service.ts';
import { describeAccount } from './accounts.ts';
import { biddingOf } from './bidding.ts';
import { EventError, parseEvent, type BidEvent } from './domain/events.ts';
import { ingestAll } from './ingest.ts';
import { AccountInput, IssueToken } from './schemas.ts';

/** Bulk bodies may be large: NDJSON of a day of traffic. */
const EVENTS_BODY_LIMIT = 512 * 1024 * 1024;
/** How many bad events an error answer lists. */
const MAX_REPORTED = 20;

export async function adminRoutes(app: FastifyInstance, ctx: ServiceContext): Promise<void> {
  const b = biddingOf(ctx);
  // NDJSON arrives as text and is parsed line by line below.
  app.addContentTypeParser(['application/x-ndjson', 'application/ndjson', 'text/plain'], { parseAs: 'string', bodyLimit: EVENTS_BODY_LIMIT }, (_req, body, done) => done(null, body));

  app.get('/accounts', async () => ({ accounts: (await b.accounts.list()).map(describeAccount) }));

  app.get('/accounts/:accountId', async (req) => {
    const account = await b.accounts.get((req.params as { accountId: string }).accountId);
    if (!account) throw new ApiError(404, 'no such bidding account');
    return describeAccount(account);
  });

  app.post('/accounts', { schema: { body: AccountInput } }, async (req, reply) => {
    const { account, token } = await b.accounts.save(req.body as AccountInput, { upsert: false });
    reply.code(201);
    return { ...describeAccount(account), token };
  });

  app.post('/accounts/:accountId/tokens', { schema: { body: IssueToken } }, async (req, reply) => {
    const { accountId } = req.params as { accountId: string };
    if (!(await b.accounts.get(accountId))) throw new ApiError(404, 'no such bidding account');
    const token = await b.accounts.issueToken(accountId, (req.body as { token?: string } | undefined)?.token);
    reply.code(201);
    return { accountId, token };
  });

  app.delete('/accounts/:accountId', async (req, reply) => {
    if (!(await b.accounts.remove((req.params as { accountId: string }).accountId))) throw new ApiError(404, 'no such bidding account');
    reply.code(204);
  });

  // Events: an NDJSON body, a JSON array, or {"events": [...]}. All are validated before any is stored.
  app.post('/events', { bodyLimit: EVENTS_BODY_LIMIT }, async (req) => {
    const events = parseBody(req.body);
    const started = performance.now();
    const ingested = await ingestAll(b.store, events, b.keepEvents);
    return { ingested, ms: Math.round(performance.now() - started) };
  });
}

function parseBody(body: unknown): BidEvent[] {
  let items: Array<{ line: number; value: unknown }>;
  const problems: string[] = [];
  if (typeof body === 'string') {
    items = [];
    body.split('\n').forEach((text, i) => {
      if (text.trim() === '') return;
      try {
        items.push({ line: i + 1, value: JSON.parse(text) });
      } catch {
        problems.push(`line ${i + 1}: not JSON`);
      }
    });
  } else {
    const list = Array.isArray(body) ? body : (body as { events?: unknown } | null)?.events;
    if (!Array.isArray(list)) throw new ApiError(400, 'send NDJSON (application/x-ndjson), a JSON array of events, or {"events": [...]}');
    items = list.map((value, i) => ({ line: i + 1, value }));
  }
  const events: BidEvent[] = [];
  for (const { line, value } of items) {
    try {
      events.push(parseEvent(value));
    } catch (err) {
      if (!(err instanceof EventError)) throw err;
      problems.push(`${typeof body === 'string' ? 'line' : 'event'} ${line}: ${err.message}`);
    }
  }
  if (problems.length > 0) {
    const more = problems.length > MAX_REPORTED ? ` (and ${problems.length - MAX_REPORTED} more)` : '';
    throw new ApiError(400, `no events stored: ${problems.length} invalid: ${problems.slice(0, MAX_REPORTED).join('; ')}${more}`);
  }
  return events;
}
