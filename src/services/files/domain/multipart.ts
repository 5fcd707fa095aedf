/** A multipart/related upload body Drive cannot read; the service answers 400. */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

export interface MultipartUpload {
  metadata: unknown;
  media: { contentType: string; data: Buffer };
}

const LF = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;
const DEFAULT_MEDIA_TYPE = 'application/octet-stream';

/**
 * Reads a Drive multipart upload (RFC 2387 multipart/related): the first part is the JSON metadata, the second
 * the media with its own Content-Type. Delimiter lines may end in CRLF or LF; the media bytes are never decoded
 * as text (except a part sent with Content-Transfer-Encoding: base64).
 */
export function parseMultipartRelated(body: Buffer, contentTypeHeader: string): MultipartUpload {
  const boundary = boundaryOf(contentTypeHeader);
  const parts = splitParts(body, boundary);
  if (parts.length < 2) throw new MultipartError(`A multipart upload needs two parts (metadata and media); the body has ${parts.length}.`);
  if (parts.length > 2) throw new MultipartError(`A multipart upload has exactly two parts (metadata and media); the body has ${parts.length}.`);
  const [metadataPart, mediaPart] = parts.map(readPart);
  return { metadata: readMetadata(metadataPart), media: { contentType: mediaPart.headers.get('content-type') ?? DEFAULT_MEDIA_TYPE, data: mediaPart.content } };
}

function boundaryOf(contentTypeHeader: string): string {
  const { type, parameters } = parseMediaType(contentTypeHeader);
  if (type !== 'multipart/related') throw new MultipartError(`A multipart upload must be sent as multipart/related, not ${JSON.stringify(type)}.`);
  const boundary = parameters.get('boundary');
  if (!boundary) throw new MultipartError('The multipart/related Content-Type has no boundary parameter.');
  if (boundary.length > 70) throw new MultipartError('The multipart boundary is longer than 70 characters.');
  return boundary;
}

/** Splits `type/subtype; name=value; name="quoted \" value"` into a lower-cased type and its parameters. */
export function parseMediaType(header: string): { type: string; parameters: Map<string, string> } {
  const semicolon = header.indexOf(';');
  const type = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const parameters = new Map<string, string>();
  const rest = semicolon < 0 ? '' : header.slice(semicolon + 1);
  const parameter = /\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))\s*(?:;|$)/gy;
  let match: RegExpExecArray | null;
  while (parameter.lastIndex < rest.length && (match = parameter.exec(rest)) !== null) {
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
    parameters.set(match[1].toLowerCase(), value);
  }
  return { type, parameters };
}

/**
 * Returns the bodies between delimiter lines. A delimiter is `--boundary` at the start of the body or of a line;
 * the line break before it belongs to the delimiter, not to the part.
 */
function splitParts(body: Buffer, boundary: string): Buffer[] {
  const dashBoundary = Buffer.from(`--${boundary}`, 'latin1');
  let delimiter = findDelimiter(body, dashBoundary, 0);
  if (delimiter === null) throw new MultipartError(`The body has no delimiter line for the boundary ${JSON.stringify(boundary)}.`);
  const parts: Buffer[] = [];
  while (!delimiter.closing) {
    const next = findDelimiter(body, dashBoundary, delimiter.next);
    if (next === null) throw new MultipartError('The multipart body is truncated: it has no closing delimiter.');
    parts.push(body.subarray(delimiter.next, next.lineStart));
    delimiter = next;
  }
  return parts;
}

interface Delimiter {
  /** Where the line break before the delimiter starts (the end of the previous part). */
  lineStart: number;
  /** The first byte after the delimiter line. */
  next: number;
  closing: boolean;
}

function findDelimiter(body: Buffer, dashBoundary: Buffer, from: number): Delimiter | null {
  for (let at = body.indexOf(dashBoundary, from); at >= 0; at = body.indexOf(dashBoundary, at + 1)) {
    const atLineStart = at === from || body[at - 1] === LF;
    if (!atLineStart) continue;
    let end = at + dashBoundary.length;
    const closing = body[end] === DASH && body[end + 1] === DASH;
    if (closing) end += 2;
    // Transport padding (spaces, tabs) may follow a delimiter before its line break.
    while (body[end] === 0x20 || body[end] === 0x09) end++;
    const lineEnd = body[end] === CR && body[end + 1] === LF ? end + 2 : body[end] === LF ? end + 1 : end === body.length && closing ? end : -1;
    if (lineEnd < 0) continue;
    const lineStart = at === from ? at : at - 2 >= from && body[at - 2] === CR ? at - 2 : at - 1;
    return { lineStart, next: lineEnd, closing };
  }
  return null;
}

interface Part {
  headers: Map<string, string>;
  content: Buffer;
}

function readPart(raw: Buffer, index: number): Part {
  const { headerEnd, contentStart } = headerBoundary(raw, index);
  const headers = new Map<string, string>();
  for (const line of raw.subarray(0, headerEnd).toString('latin1').split(/\r?\n/)) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`Part ${index + 1} has a malformed header line ${JSON.stringify(line)}.`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let content = raw.subarray(contentStart);
  if (headers.get('content-transfer-encoding')?.toLowerCase() === 'base64') content = Buffer.from(content.toString('latin1'), 'base64');
  return { headers, content };
}

/** Finds the blank line ending a part's headers; a part may start with it directly (no headers). */
function headerBoundary(raw: Buffer, index: number): { headerEnd: number; contentStart: number } {
  if (raw[0] === CR && raw[1] === LF) return { headerEnd: 0, contentStart: 2 };
  if (raw[0] === LF) return { headerEnd: 0, contentStart: 1 };
  for (let at = raw.indexOf(LF); at >= 0; at = raw.indexOf(LF, at + 1)) {
    const headerEnd = raw[at - 1] === CR ? at - 1 : at;
    if (raw[at + 1] === LF) return { headerEnd, contentStart: at + 2 };
    if (raw[at + 1] === CR && raw[at + 2] === LF) return { headerEnd, contentStart: at + 3 };
  }
  throw new MultipartError(`Part ${index + 1} has no blank line after its headers.`);
}

function readMetadata(part: Part): unknown {
  const contentType = part.headers.get('content-type');
  if (contentType !== undefined && parseMediaType(contentType).type !== 'application/json') {
    throw new MultipartError(`The first part must be the application/json metadata, not ${JSON.stringify(contentType)}.`);
  }
  try {
    return JSON.parse(part.content.toString('utf8'));
  } catch (err) {
    throw new MultipartError(`The metadata part is not valid JSON: ${(err as Error).message}`);
  }
}
