// A bid event: one bid opportunity of a bidder on behalf of an account, with what became of it.
// Parsing is strict so that nothing malformed reaches the aggregates.
import { instantToMs, parseRfc3339 } from '../../../core/time.ts';
import { DEFAULT_REASON, DETAIL_TYPE_OF_STATUS, MAX_STATUS_ID, NON_BILLABLE_STATUSES, NO_BID_STATUSES, STAGE, type Stage } from './stages.ts';
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
  /**
   * Where the event left the funnel before any response with bids, one bit each (FUNNEL); 0 for an event that matched
   * pretargeting, was sent and answered, which is what every event written before these facts existed did.
   */
  funnel: number;
  /** The status id or reason code of the event's stage (see stages.ts); 0 when the event named none. */
  reason: number;
  /** The detail of a filtered bid's creative status; '' when none. */
  detail: string;
}

/** Funnel bits: the event stopped before matching, before the callout, or at a failed response. */
export const FUNNEL = { notMatched: 1, requestFiltered: 2, responseError: 4 } as const;

export class EventError extends Error {}

/** Funnel facts, each defaulting to the one before it (and the first to true). */
const FUNNEL_FIELDS = ['inventoryMatch', 'bidRequest', 'successfulResponse'] as const;
const REASON_FIELDS = ['calloutStatusId', 'noBidStatus', 'creativeStatusId', 'detail', 'nonBillableStatus'] as const;
const KNOWN = new Set(['time', 'bidder', 'account', 'format', 'environment', 'platform', 'creativeId', 'dealId', ...OUTCOMES, ...FUNNEL_FIELDS, ...REASON_FIELDS]);
const DETAIL_PATTERN = /^[\x20-\x7e]{1,200}$/;
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
  const funnel = parseFunnel(e, outcomes);
  const stage = stageOf({ outcomes, funnel });
  const { reason, detail } = parseReason(e, stage);
  return { at, bidder, account, format, environment, platform, creative, deal, outcomes, funnel, reason, detail };
}

function parseFunnel(e: Record<string, unknown>, outcomes: number): number {
  let passed = true;
  let previous = '';
  let funnel = 0;
  const bits = [FUNNEL.notMatched, FUNNEL.requestFiltered, FUNNEL.responseError];
  FUNNEL_FIELDS.forEach((name, i) => {
    const v = e[name];
    if (v !== undefined && typeof v !== 'boolean') throw new EventError(`"${name}" must be a boolean`);
    const value = v ?? passed;
    if (value && !passed) throw new EventError(`"${name}" is true but "${previous}" is not`);
    if (!value && passed) funnel = bits[i];
    passed = value;
    previous = name;
  });
  if (!passed && has(outcomes, 'bid')) throw new EventError('"bid" is true but "successfulResponse" is not');
  return funnel;
}

/** The stage an event ended at: the first funnel bit set, else how far its outcomes went. */
export function stageOf(ev: Pick<BidEvent, 'outcomes' | 'funnel'>): Stage {
  if (ev.funnel & FUNNEL.notMatched) return STAGE.notMatched;
  if (ev.funnel & FUNNEL.requestFiltered) return STAGE.requestFiltered;
  if (ev.funnel & FUNNEL.responseError) return STAGE.responseError;
  if (!has(ev.outcomes, 'bid')) return STAGE.noBid;
  if (!has(ev.outcomes, 'inAuction')) return STAGE.bidFiltered;
  if (!has(ev.outcomes, 'won')) return STAGE.bidLost;
  return has(ev.outcomes, 'billed') ? STAGE.wonBilled : STAGE.wonNotBilled;
}

/** The reason counted for an event: the one it names, else its stage's default. */
export const reasonOf = (ev: Pick<BidEvent, 'outcomes' | 'funnel' | 'reason'>): number => ev.reason || DEFAULT_REASON[stageOf(ev)];

/** Which reason field each stage takes; a field given for another stage is refused (it would be counted nowhere). */
const REASON_FIELD_OF: Partial<Record<Stage, (typeof REASON_FIELDS)[number]>> = {
  [STAGE.requestFiltered]: 'calloutStatusId',
  [STAGE.responseError]: 'calloutStatusId',
  [STAGE.noBid]: 'noBidStatus',
  [STAGE.bidFiltered]: 'creativeStatusId',
  [STAGE.bidLost]: 'creativeStatusId',
  [STAGE.wonNotBilled]: 'nonBillableStatus',
};
const WHEN: Record<string, string> = {
  calloutStatusId: 'a filtered bid request (bidRequest false) or a failed response (successfulResponse false)',
  noBidStatus: 'a successful response without a bid',
  creativeStatusId: 'a bid that did not win',
  nonBillableStatus: 'a winning bid that was not billed',
  detail: 'a filtered bid (bid true, inAuction false) whose creativeStatusId has details',
};

function parseReason(e: Record<string, unknown>, stage: Stage): { reason: number; detail: string } {
  const field = REASON_FIELD_OF[stage];
  for (const name of REASON_FIELDS) {
    if (name !== 'detail' && name !== field && e[name] !== undefined && e[name] !== null) throw new EventError(`"${name}" applies only to ${WHEN[name]}`);
  }
  let reason = 0;
  const v = field === undefined ? undefined : e[field];
  if (v !== undefined && v !== null) {
    if (field === 'noBidStatus' || field === 'nonBillableStatus') {
      const values = field === 'noBidStatus' ? NO_BID_STATUSES : NON_BILLABLE_STATUSES;
      reason = codeOf(values, enumField(e, field, values));
    } else {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1 || v > MAX_STATUS_ID) throw new EventError(`"${field}" must be a positive int32 status id`);
      reason = v;
    }
  }
  let detail = '';
  if (e.detail !== undefined && e.detail !== null) {
    if (stage !== STAGE.bidFiltered || !DETAIL_TYPE_OF_STATUS.has(reason)) {
      throw new EventError(`"detail" applies only to ${WHEN.detail} (${[...DETAIL_TYPE_OF_STATUS.keys()].join(', ')})`);
    }
    const text = typeof e.detail === 'number' && Number.isSafeInteger(e.detail) ? String(e.detail) : e.detail;
    if (typeof text !== 'string' || !DETAIL_PATTERN.test(text)) throw new EventError('"detail" must be 1 to 200 printable characters (or an integer)');
    detail = text;
  }
  return { reason, detail };
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
  if (ev.funnel & FUNNEL.notMatched) out.inventoryMatch = false;
  else if (ev.funnel & FUNNEL.requestFiltered) out.bidRequest = false;
  else if (ev.funnel & FUNNEL.responseError) out.successfulResponse = false;
  if (ev.reason) {
    const stage = stageOf(ev);
    const field = REASON_FIELD_OF[stage]!;
    if (field === 'noBidStatus') out[field] = NO_BID_STATUSES[ev.reason - 1];
    else if (field === 'nonBillableStatus') out[field] = NON_BILLABLE_STATUSES[ev.reason - 1];
    else out[field] = ev.reason;
  }
  if (ev.detail) out.detail = ev.detail;
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
