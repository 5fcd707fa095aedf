// The wire format of Google's HTTP batch requests: a multipart/mixed body whose parts are `application/http` messages,
// each an HTTP request (request line, headers, blank line, body); the answer is multipart/mixed again, one HTTP
// response per part. Lines may end in CRLF or LF alone (Python's client writes LF). Parsing is strict: anything it
// cannot read is a BatchSyntaxError naming the part, so a batch is refused before any of its calls runs.
import { STATUS_CODES } from 'node:http';
import { randomHex } from '../ids.ts';

export class BatchSyntaxError extends Error {}

/** One call of a batch as sent. */
export interface BatchPart {
  /** The part's Content-ID, as given (angle brackets included). */
  contentId?: string;
  method: string;
  /** The request target as written: a path (absolute or relative) or an absolute URL. */
  target: string;
  /** Header names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/** One call's answer. */
export interface BatchAnswer {
  contentId?: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Controls other than tab cannot appear in a header value (light-my-request and Node would throw on them).
const BAD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const PASSED_ENCODINGS = new Set(['binary', '8bit', '7bit']);

/** The boundary of a `multipart/mixed` Content-Type, or a BatchSyntaxError saying what is wrong with the type. */
export function boundaryOf(contentType: string | undefined): string {
  const [essence, ...params] = (contentType ?? '').split(';');
  if (essence!.trim().toLowerCase() !== 'multipart/mixed') {
    throw new BatchSyntaxError(`A batch request must have Content-Type multipart/mixed (got ${contentType ? JSON.stringify(contentType) : 'none'}).`);
  }
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters, not ending in a space.
    if (value.length < 1 || value.length > 70 || value.endsWith(' ') || BAD_VALUE.test(value)) {
      throw new BatchSyntaxError('The multipart/mixed boundary must be 1 to 70 characters.');
    }
    return value;
  }
  throw new BatchSyntaxError('The multipart/mixed Content-Type has no boundary parameter.');
}

/** The bodies of the parts between `--boundary` lines, up to the closing `--boundary--` (preamble and epilogue ignored). */
export function splitMultipart(body: Buffer, boundary: string): Buffer[] {
  const dash = Buffer.from(`--${boundary}`, 'latin1');
  const parts: Buffer[] = [];
  let partStart = -1;
  for (let at = body.indexOf(dash); at >= 0; at = body.indexOf(dash, at + 1)) {
    // A delimiter starts a line; the line break before it belongs to it.
    if (at > 0 && body[at - 1] !== 0x0a) continue;
    let after = at + dash.length;
    const closing = body[after] === 0x2d && body[after + 1] === 0x2d;
    if (!closing) {
      while (body[after] === 0x20 || body[after] === 0x09) after++; // transport padding
      if (body[after] === 0x0d) after++;
      if (body[after] !== 0x0a) continue; // `--boundaryX...`: part of the content, not a delimiter
      after++;
    }
    if (partStart >= 0) {
      let end = at;
      if (end > partStart && body[end - 1] === 0x0a) end--;
      if (end > partStart && body[end - 1] === 0x0d) end--;
      parts.push(body.subarray(partStart, end));
    }
    if (closing) return parts;
    partStart = after;
  }
  throw new BatchSyntaxError(partStart < 0 ? 'The batch body contains no part delimited by its boundary.' : 'The batch body does not end with its closing boundary.');
}

/** Reads one part: its MIME headers, then the HTTP request it carries. `n` (1-based) names the part in errors. */
export function parsePart(part: Buffer, n: number): BatchPart {
  const outer = splitHead(part);
  if (!outer) throw new BatchSyntaxError(`Batch part ${n} has no blank line after its headers.`);
  const mime = headersOf(outer.head, n);
  const type = mime['content-type'];
  if (type === undefined || type.split(';')[0]!.trim().toLowerCase() !== 'application/http') {
    throw new BatchSyntaxError(`Batch part ${n} must have Content-Type application/http (got ${type === undefined ? 'none' : JSON.stringify(type)}).`);
  }
  const encoding = mime['content-transfer-encoding'];
  if (encoding !== undefined && !PASSED_ENCODINGS.has(encoding.trim().toLowerCase())) {
    throw new BatchSyntaxError(`Batch part ${n} has Content-Transfer-Encoding ${encoding}; only binary, 8bit and 7bit are accepted.`);
  }
  // An embedded request without headers or body may end right after its request line.
  const inner = splitHead(outer.body) ?? { head: outer.body.toString('latin1').replace(/\r?\n$/, ''), body: Buffer.alloc(0) };
  const [requestLine = '', ...headerLines] = inner.head.split(/\r?\n/);
  const m = /^([A-Za-z]+) (\S+)(?: (HTTP\/1\.[01]))?$/.exec(requestLine.trim());
  if (!m) throw new BatchSyntaxError(`Batch part ${n} does not start with a request line (METHOD target [HTTP/1.1]): ${JSON.stringify(requestLine.slice(0, 200))}.`);
  const method = m[1]!.toUpperCase();
  if (!METHODS.has(method)) throw new BatchSyntaxError(`Batch part ${n} uses method ${m[1]}, which a batch cannot carry.`);
  const headers = headersOf(headerLines, n);
  let body = inner.body;
  const declared = headers['content-length'];
  if (declared !== undefined) {
    if (!/^\d{1,15}$/.test(declared.trim()) || Number(declared) > body.length) {
      throw new BatchSyntaxError(`Batch part ${n} declares Content-Length ${declared}, but carries ${body.length} bytes.`);
    }
    body = body.subarray(0, Number(declared));
  }
  return { ...(mime['content-id'] !== undefined ? { contentId: mime['content-id'] } : {}), method, target: m[2]!, headers, body };
}

/** The Content-ID of a part's answer: `response-` before the id, inside its angle brackets when it has them. */
export function answerContentId(contentId: string): string {
  const bracketed = /^<(.*)>$/.exec(contentId);
  return bracketed ? `<response-${bracketed[1]}>` : `response-${contentId}`;
}

/** The multipart/mixed answer: its Content-Type (with a fresh boundary found in no answer) and its body. */
export function writeAnswers(answers: BatchAnswer[]): { contentType: string; body: Buffer } {
  const messages = answers.map(httpResponse);
  let boundary = `batch_${randomHex()}`;
  while (messages.some((m) => m.includes(boundary, 0, 'latin1'))) boundary = `batch_${randomHex()}`;
  const chunks: Buffer[] = [];
  answers.forEach((answer, i) => {
    const head = [`--${boundary}`, 'Content-Type: application/http'];
    if (answer.contentId !== undefined) head.push(`Content-ID: ${answerContentId(answer.contentId)}`);
    chunks.push(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), messages[i]!, Buffer.from('\r\n', 'latin1'));
  });
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { contentType: `multipart/mixed; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

// Hop-by-hop headers describe the listener's connection, not the call.
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Status line with its reason phrase (clients split the line in three), headers, blank line (always), body. */
function httpResponse(answer: BatchAnswer): Buffer {
  const lines = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Unknown'}`];
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const v of [value].flat()) lines.push(`${displayName(name)}: ${v}`);
  }
  lines.push(`Content-Length: ${answer.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), answer.body]);
}

/** `content-type` -> `Content-Type`, as Google writes header names. */
const displayName = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

/** The text before the first blank line and the bytes after it, or undefined when there is no blank line. */
function splitHead(bytes: Buffer): { head: string; body: Buffer } | undefined {
  const crlf = bytes.indexOf('\r\n\r\n', 0, 'latin1');
  const lf = bytes.indexOf('\n\n', 0, 'latin1');
  if (crlf < 0 && lf < 0) return undefined;
  const [at, length] = lf >= 0 && (crlf < 0 || lf < crlf) ? [lf, 2] : [crlf, 4];
  return { head: bytes.subarray(0, at).toString('latin1'), body: bytes.subarray(at + length) };
}

function headersOf(head: string | string[], n: number): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const lines = typeof head === 'string' ? head.split(/\r?\n/) : head;
  for (const line of lines) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    const value = line.slice(colon + 1).trim();
    if (!TOKEN.test(name) || BAD_VALUE.test(value)) throw new BatchSyntaxError(`Batch part ${n} has a malformed header line: ${JSON.stringify(line.slice(0, 200))}.`);
    const key = name.toLowerCase();
    out[key] = key in out ? `${out[key]}, ${value}` : value;
  }
  return out;
}
