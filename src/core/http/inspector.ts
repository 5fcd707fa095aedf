// The request inspector: the last requests of each service (method, path, status, latency, principal, bodies), kept
// in memory in a ring per service bounded by a byte budget, with credentials, secrets and card data redacted before
// anything is kept. Listeners feed it; the console reads and follows it.
import { REDACTED, isSensitiveName, mayHoldSensitiveKey, redactUrl } from './redact.ts';

export interface InspectedRequest {
  /** Increases by one per recorded request, across services: a reader resumes after the last one it saw. */
  seq: number;
  service: string;
  requestId: string;
  at: string;
  method: string;
  /** Path and query, sensitive query values redacted. */
  path: string;
  status: number;
  ms: number;
  principal: string | null;
  requestBody: string | null;
  responseBody: string | null;
}

export interface RawExchange {
  service: string;
  requestId: string;
  at: number;
  method: string;
  url: string;
  status: number;
  ms: number;
  principal: string | null;
  /** `bytes`: the body's size on the wire when known (a parsed body no longer tells it). */
  request: { contentType: string | undefined; body: unknown; bytes?: number };
  response: { contentType: string | undefined; body: unknown; bytes?: number };
}

export interface InspectorFilter {
  service?: string;
  method?: string;
  /** Substring of the path. */
  path?: string;
  /** An exact status, or a class such as "4xx". */
  status?: string;
  afterSeq?: number;
  limit?: number;
}

/** Per-service budget: about a megabyte of entries, and never more than this many. */
export const BYTES_PER_SERVICE = 1024 * 1024;
export const ENTRIES_PER_SERVICE = 500;
/** A body longer than this is cut (after redaction), so one upload cannot take a service's whole budget. */
export const BODY_CHARS = 8 * 1024;
/** Bodies larger than this are only described: redacting them field by field would cost every large request. */
export const REDACT_MAX_BYTES = 256 * 1024;

/** Services whose bodies are the secrets themselves: only the request line is kept. */
const BODIES_NEVER_KEPT = new Set(['secrets']);

/** Candidate card numbers inside a string: 13 to 19 digits, optionally grouped by spaces or dashes. */
const CARD_NUMBER = /\b\d(?:[ -]?\d){12,18}\b/g;
/** The same, to ask whether there is one: most texts have none, and a replace with a callback costs even then. */
const HAS_CARD_NUMBER = new RegExp(CARD_NUMBER.source);

interface Ring {
  entries: InspectedRequest[];
  bytes: number[];
  /** Sum of `bytes`, kept as entries come and go (summing per request cost every request the ring's length). */
  held: number;
  total: number;
}

/** The last time formatted: the requests of one millisecond share it (formatting took a quarter of a record). */
let lastTime = { ms: NaN, iso: '' };

function isoTime(ms: number): string {
  const whole = Math.trunc(ms);
  if (whole !== lastTime.ms) lastTime = { ms: whole, iso: new Date(whole).toISOString() };
  return lastTime.iso;
}

const text = (s: string | null) => (s === null ? 0 : Buffer.byteLength(s));

/**
 * `describe` remembering its last text and result. A client polling one resource sends the same path and gets the
 * same answer (a kept answer is even the same string): describing each again scanned the whole text every request.
 * Comparing with the last text costs at most a comparison of equal-length strings. A text that needed redacting is
 * not remembered, so nothing sensitive stays referenced after its request.
 */
function rememberingLast<R>(describe: (text: string) => { described: R; redacted: boolean }): (text: string) => R {
  let last: { text: string; described: R } | undefined;
  return (text) => {
    if (last?.text === text) return last.described;
    const { described, redacted } = describe(text);
    last = redacted ? undefined : { text, described };
    return described;
  };
}

const describePath = rememberingLast((url) => {
  const described = redactCardNumbers(redactUrl(url));
  return { described, redacted: described !== url };
});

/** An entry's size in the budget: its strings' UTF-8 bytes and a fixed allowance for the rest. */
function sizeOf(entry: InspectedRequest): number {
  return 160 + text(entry.service) + text(entry.requestId) + text(entry.method) + text(entry.path) + text(entry.principal) + text(entry.requestBody) + text(entry.responseBody);
}

export class RequestInspector {
  readonly #rings = new Map<string, Ring>();
  readonly #listeners = new Set<(entry: InspectedRequest) => void>();
  readonly #bytesPerService: number;
  readonly #entriesPerService: number;
  #seq = 0;

  constructor(limits: { bytesPerService?: number; entriesPerService?: number } = {}) {
    this.#bytesPerService = limits.bytesPerService ?? BYTES_PER_SERVICE;
    this.#entriesPerService = limits.entriesPerService ?? ENTRIES_PER_SERVICE;
  }

  record(raw: RawExchange): InspectedRequest {
    const keepBodies = !BODIES_NEVER_KEPT.has(raw.service);
    const entry: InspectedRequest = {
      seq: ++this.#seq,
      service: raw.service,
      requestId: raw.requestId,
      at: isoTime(raw.at),
      method: raw.method,
      path: describePath(raw.url),
      status: raw.status,
      ms: Math.round(raw.ms * 10) / 10,
      principal: raw.principal,
      requestBody: keepBodies ? describeBody(raw.request.contentType, raw.request.body, raw.request.bytes) : notKept(raw.request.body),
      responseBody: keepBodies ? describeBody(raw.response.contentType, raw.response.body, raw.response.bytes) : notKept(raw.response.body),
    };
    this.#keep(entry);
    for (const listener of this.#listeners) listener(entry);
    return entry;
  }

  /** Recorded requests, oldest first, across services unless one is named. */
  list(filter: InspectorFilter = {}): InspectedRequest[] {
    const rings = filter.service ? [this.#rings.get(filter.service)].filter((r): r is Ring => !!r) : [...this.#rings.values()];
    const matches = rings.flatMap((r) => r.entries).filter((e) => matchesFilter(e, filter));
    matches.sort((a, b) => a.seq - b.seq);
    return filter.limit !== undefined ? matches.slice(-filter.limit) : matches;
  }

  /** What each service's ring holds now. */
  usage(): Record<string, { entries: number; bytes: number; recorded: number }> {
    const out: Record<string, { entries: number; bytes: number; recorded: number }> = {};
    for (const [service, ring] of this.#rings) out[service] = { entries: ring.entries.length, bytes: ring.held, recorded: ring.total };
    return out;
  }

  /** Calls `listener` with every request recorded from now on; returns the unsubscribe function. */
  subscribe(listener: (entry: InspectedRequest) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  clear(service?: string): void {
    if (service) this.#rings.delete(service);
    else this.#rings.clear();
  }

  #keep(entry: InspectedRequest): void {
    let ring = this.#rings.get(entry.service);
    if (!ring) this.#rings.set(entry.service, (ring = { entries: [], bytes: [], held: 0, total: 0 }));
    const size = sizeOf(entry);
    ring.entries.push(entry);
    ring.bytes.push(size);
    ring.held += size;
    ring.total += 1;
    while (ring.entries.length > 1 && (ring.held > this.#bytesPerService || ring.entries.length > this.#entriesPerService)) {
      ring.entries.shift();
      ring.held -= ring.bytes.shift()!;
    }
  }
}

export function matchesFilter(e: InspectedRequest, f: InspectorFilter): boolean {
  if (f.service && e.service !== f.service) return false;
  if (f.afterSeq !== undefined && e.seq <= f.afterSeq) return false;
  if (f.method && e.method.toUpperCase() !== f.method.toUpperCase()) return false;
  if (f.path && !e.path.toLowerCase().includes(f.path.toLowerCase())) return false;
  if (f.status) {
    const cls = /^([1-5])xx$/i.exec(f.status);
    if (cls ? Math.floor(e.status / 100) !== Number(cls[1]) : String(e.status) !== f.status) return false;
  }
  return true;
}

function notKept(body: unknown): string | null {
  return isEmpty(body) ? null : '[not kept for this service]';
}

function isEmpty(body: unknown): boolean {
  return body === undefined || body === null || body === '' || (Buffer.isBuffer(body) && body.length === 0);
}

/**
 * A body as the inspector shows it: JSON and form bodies with sensitive fields redacted, everything else (XML, HTML,
 * uploads, streams) only described, since their content cannot be redacted field by field.
 */
export function describeBody(contentType: string | undefined, body: unknown, bytes?: number): string | null {
  if (isEmpty(body)) return null;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const size = bytes ?? (typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : undefined);
  if (size !== undefined && size > REDACT_MAX_BYTES) return `[${type || 'binary'} body, ${size} bytes, too large to keep]`;
  // A body the framework already parsed (JSON or a form) is redacted field by field.
  if (typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function') {
    const text = JSON.stringify(body);
    return cut(needsRedaction(text) ? JSON.stringify(redactValue(body)) : text);
  }
  if (typeof body !== 'string') return `[${type || 'binary'} body not kept]`;
  if (type === 'application/x-www-form-urlencoded') return cut(redactForm(body));
  if (type === 'application/json' || type.endsWith('+json')) {
    return describeJsonText(body) ?? `[unparsable ${type} body, ${body.length} characters, not kept]`;
  }
  return `[${type || 'text'} body, ${Buffer.byteLength(body)} bytes, not kept]`;
}

/**
 * A JSON text as kept: as it is, or redacted field by field when it may hold something sensitive; cut to size. Null
 * when it needed redacting but does not parse.
 */
const describeJsonText = rememberingLast((body) => {
  if (!needsRedaction(body)) return { described: cut(body), redacted: false };
  try {
    return { described: cut(JSON.stringify(redactValue(JSON.parse(body)))) as string | null, redacted: true };
  } catch {
    return { described: null, redacted: true };
  }
});

/**
 * Whether the part of a JSON text the inspector keeps could show a sensitive field or a card number. Most bodies
 * hold neither, and are kept as they are; redacting them field by field (parse, copy, stringify) cost every request.
 * The scan reaches a little past the cut, so a card number straddling it is still seen whole.
 */
function needsRedaction(jsonText: string): boolean {
  const kept = jsonText.length > BODY_CHARS + 64 ? jsonText.slice(0, BODY_CHARS + 64) : jsonText;
  return mayHoldSensitiveKey(kept) || redactCardNumbers(kept) !== kept;
}

/** A copy with the values of sensitive fields replaced and card numbers masked inside every string. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (depth > 32) return REDACTED;
  if (typeof value === 'string') return redactCardNumbers(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSensitiveName(k) ? REDACTED : redactValue(v, depth + 1);
    return out;
  }
  return value;
}

function redactForm(text: string): string {
  const params = new URLSearchParams(text);
  const out = new URLSearchParams();
  for (const [k, v] of params) out.append(k, isSensitiveName(k) ? REDACTED : redactCardNumbers(v));
  return out.toString();
}

/** Masks every digit run that is a card number (it passes the Luhn check), leaving ids and timestamps alone. */
export function redactCardNumbers(text: string): string {
  if (!HAS_CARD_NUMBER.test(text)) return text;
  return text.replace(CARD_NUMBER, (run) => (passesLuhn(run.replace(/[ -]/g, '')) ? REDACTED : run));
}

function passesLuhn(digits: string): boolean {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    total += d;
  }
  return total % 10 === 0;
}

function cut(text: string): string {
  if (text.length <= BODY_CHARS) return text;
  // A slice of a string keeps the whole string alive; the copy keeps only what the budget counts (a structured
  // clone copies 8 KiB in 1 µs, a JSON round trip took 18).
  const kept = structuredClone(text.slice(0, BODY_CHARS));
  return `${kept}… [${text.length - BODY_CHARS} more characters not kept]`;
}
