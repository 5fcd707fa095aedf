// A bid event: one bid opportunity of a bidder on behalf of an account, with what became of it.
// Parsing is strict so that nothing malformed reaches the aggregates.
import { instantToMs, parseRfc3339 } from '../../../core/time.ts';
import { ENVIRONMENTS, EVENT_FORMATS, EVENT_FORMAT_ALIASES, ID_PATTERN, PLATFORMS, codeOf } from './vocabulary.ts';

/** Outcome flags, one bit each, in the order of the metrics they feed. */
export const OUTCOMES = ['bid', 'inAuction', 'won', 'billed', 'measurable', 'viewable'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Each outcome implies the one named here (a bid in the auction was a bid; a viewable impression was measurable...). */
const IMPLIES: Partial<Record<Outcome, Outcome>> = {
  inAuction: 'bid',
  won: 'inAuction',
  billed: 'won',
  measurable: 'won',
  viewable: 'measurable',
};

export interface BidEvent {
  /** Epoch milliseconds. */
  at: number;
  bidder: string;
  account: string;
  format: number;
  environment: number;
  platform: number;
  /** '' when the event names no creative. */
  creative: string;
  /** '' when the bid was not on a deal. */
  deal: string;
  /** Bit i set when OUTCOMES[i] happened. */
  outcomes: number;
}

export class EventError extends Error {}

const KNOWN = new Set(['time', 'bidder', 'account', 'format', 'environment', 'platform', 'creativeId', 'dealId', ...OUTCOMES]);
const DEAL_PATTERN = /^[0-9]{1,19}$/;
const CREATIVE_PATTERN = /^[\x21-\x7e]{1,128}$/;

/** Validates one event as received (parsed JSON); throws EventError naming the first problem. */
export function parseEvent(input: unknown): BidEvent {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new EventError('an event must be a JSON object');
  const e = input as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!KNOWN.has(key)) throw new EventError(`unknown field "${key}"`);
  const at = parseTime(e.time);
  const bidder = idField(e, 'bidder');
  const account = idField(e, 'account');
  const formatName = enumField(e, 'format', [...EVENT_FORMATS, ...Object.keys(EVENT_FORMAT_ALIASES)]);
  const format = codeOf(EVENT_FORMATS, EVENT_FORMAT_ALIASES[formatName] ?? formatName);
  const environment = codeOf(ENVIRONMENTS, enumField(e, 'environment', ENVIRONMENTS));
  const platform = codeOf(PLATFORMS, enumField(e, 'platform', PLATFORMS));
  let creative = '';
  if (e.creativeId !== undefined && e.creativeId !== null) {
    if (typeof e.creativeId !== 'string' || !CREATIVE_PATTERN.test(e.creativeId)) throw new EventError('"creativeId" must be 1 to 128 printable characters');
    creative = e.creativeId;
  }
  let deal = '';
  if (e.dealId !== undefined && e.dealId !== null) {
    const text = typeof e.dealId === 'number' && Number.isSafeInteger(e.dealId) ? String(e.dealId) : e.dealId;
    if (typeof text !== 'string' || !DEAL_PATTERN.test(text)) throw new EventError('"dealId" must be an int64 deal id (digits)');
    deal = text.replace(/^0+(?=\d)/, '');
  }
  let outcomes = 0;
  OUTCOMES.forEach((name, bit) => {
    const v = e[name];
    if (v === undefined || v === false) return;
    if (v !== true) throw new EventError(`"${name}" must be a boolean`);
    outcomes |= 1 << bit;
  });
  for (const [name, needs] of Object.entries(IMPLIES) as Array<[Outcome, Outcome]>) {
    if (has(outcomes, name) && !has(outcomes, needs)) throw new EventError(`"${name}" is true but "${needs}" is not`);
  }
  return { at, bidder, account, format, environment, platform, creative, deal, outcomes };
}

export const has = (outcomes: number, name: Outcome): boolean => (outcomes & (1 << OUTCOMES.indexOf(name))) !== 0;

/** The wire form of a stored event (what `parseEvent` accepts), for exports and the generator's NDJSON. */
export function eventToJson(ev: BidEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {
    time: new Date(ev.at).toISOString(),
    bidder: ev.bidder,
    account: ev.account,
    format: EVENT_FORMATS[ev.format - 1],
    environment: ENVIRONMENTS[ev.environment - 1],
    platform: PLATFORMS[ev.platform - 1],
  };
  if (ev.creative) out.creativeId = ev.creative;
  if (ev.deal) out.dealId = ev.deal;
  OUTCOMES.forEach((name, bit) => {
    if (ev.outcomes & (1 << bit)) out[name] = true;
  });
  return out;
}

function parseTime(v: unknown): number {
  if (typeof v === 'string') {
    const instant = parseRfc3339(v);
    if (instant) return instantToMs(instant);
  }
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  throw new EventError('"time" must be an RFC 3339 timestamp (or epoch milliseconds)');
}

function idField(e: Record<string, unknown>, name: string): string {
  const v = e[name];
  const text = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v;
  if (typeof text !== 'string' || !ID_PATTERN.test(text)) throw new EventError(`"${name}" must be an account id (1 to 64 letters, digits, _ or -)`);
  return text;
}

function enumField(e: Record<string, unknown>, name: string, values: readonly string[]): string {
  const v = e[name];
  if (typeof v !== 'string' || !values.includes(v)) throw new EventError(`"${name}" must be one of ${values.join(', ')}`);
  return v;
}
