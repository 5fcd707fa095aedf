// Node's HTTP parser refuses the LIST, HELP and SCAN verbs before any handler runs, yet Vault clients send them.
// This incremental rewriter sits in front of the parser: it frames HTTP/1.1 requests (head, then a Content-Length
// or chunked body) so that it only ever touches request lines, turns `LIST /p HTTP/1.1` into `GET /p HTTP/1.1` plus
// a marker header carrying the verb, and drops any marker header a client sent itself. Anything it cannot frame with
// certainty (malformed heads, conflicting lengths, upgrades) switches it to pass-through, so Node's parser answers.

export const VERB_HEADER = 'x-secrets-verb';
export const EXTENDED_VERBS = new Set(['LIST', 'HELP', 'SCAN']);

const MAX_HEAD = 64 * 1024;
const CRLF2 = Buffer.from('\r\n\r\n');
const MARKER_RE = new RegExp(`^${VERB_HEADER}\\s*:`, 'i');
/** A header name (the text before its line's first colon) that MARKER_RE would match on the line. */
const MARKER_NAME = new RegExp(`^${VERB_HEADER}\\s*$`, 'i');
const REQUEST_LINE = /^([A-Za-z]+) (\S+) (HTTP\/1\.[01])$/;

type State =
  | { kind: 'head' }
  | { kind: 'body'; remaining: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; remaining: number }
  | { kind: 'chunk-data-end'; remaining: number }
  | { kind: 'trailers' }
  | { kind: 'passthrough' };

export class VerbRewriter {
  #state: State = { kind: 'head' };
  /** Bytes of an incomplete head or chunk-size/trailer line, held until complete. */
  #held: Buffer = Buffer.alloc(0);

  /** Feeds bytes from the socket; returns the bytes to hand to the HTTP parser (possibly none yet). */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    const buf = this.#held.length ? Buffer.concat([this.#held, chunk]) : chunk;
    this.#held = Buffer.alloc(0);
    let pos = 0;
    while (pos < buf.length) {
      const s = this.#state;
      if (s.kind === 'passthrough') {
        out.push(buf.subarray(pos));
        return out;
      }
      if (s.kind === 'body' || s.kind === 'chunk-data' || s.kind === 'chunk-data-end') {
        const take = Math.min(s.remaining, buf.length - pos);
        out.push(buf.subarray(pos, pos + take));
        pos += take;
        s.remaining -= take;
        if (s.remaining === 0) {
          if (s.kind === 'body') this.#state = { kind: 'head' };
          else if (s.kind === 'chunk-data') this.#state = { kind: 'chunk-data-end', remaining: 2 };
          else this.#state = { kind: 'chunk-size' };
        }
        continue;
      }
      if (s.kind === 'chunk-size' || s.kind === 'trailers') {
        const eol = buf.indexOf('\r\n', pos);
        if (eol < 0) {
          if (buf.length - pos > MAX_HEAD) return this.#passthrough(out, buf, pos);
          this.#held = Buffer.from(buf.subarray(pos));
          return out;
        }
        const line = buf.subarray(pos, eol).toString('latin1');
        out.push(buf.subarray(pos, eol + 2));
        pos = eol + 2;
        if (s.kind === 'trailers') {
          if (line === '') this.#state = { kind: 'head' };
          continue;
        }
        const size = /^([0-9a-fA-F]{1,8})(?:[ \t]*;.*)?$/.exec(line);
        if (!size) {
          this.#state = { kind: 'passthrough' };
          continue;
        }
        const n = parseInt(size[1]!, 16);
        this.#state = n === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', remaining: n };
        continue;
      }
      // A request head. Empty lines before a request line are tolerated by the parser; pass them on.
      while (pos + 1 < buf.length && buf[pos] === 13 && buf[pos + 1] === 10) {
        out.push(buf.subarray(pos, pos + 2));
        pos += 2;
      }
      if (pos >= buf.length) break;
      const end = buf.indexOf(CRLF2, pos);
      if (end < 0) {
        if (buf.length - pos > MAX_HEAD) return this.#passthrough(out, buf, pos);
        this.#held = Buffer.from(buf.subarray(pos));
        return out;
      }
      const head = buf.subarray(pos, end + 4);
      pos = end + 4;
      out.push(this.#rewriteHead(head));
    }
    return out;
  }

  #passthrough(out: Buffer[], buf: Buffer, pos: number): Buffer[] {
    this.#state = { kind: 'passthrough' };
    out.push(buf.subarray(pos));
    return out;
  }

  /** Decides the framing of what follows and returns the head to forward (rewritten only when needed). */
  #rewriteHead(head: Buffer): Buffer {
    const text = head.toString('latin1');
    // Lines are read in place (a head ends with CRLF CRLF, so every line ends with a CRLF at or before `stop`):
    // splitting the head and trimming every header cost a small request about a microsecond.
    const stop = text.length - 4;
    const firstEnd = text.indexOf('\r\n');
    const requestLine = REQUEST_LINE.exec(text.slice(0, firstEnd));
    if (!requestLine) {
      this.#state = { kind: 'passthrough' };
      return head;
    }
    let contentLength: number | undefined;
    let chunked = false;
    let hasMarker = false;
    for (let start = firstEnd + 2; start <= stop; ) {
      const end = text.indexOf('\r\n', start);
      const colon = text.indexOf(':', start);
      if (colon <= start || colon > end) {
        this.#state = { kind: 'passthrough' };
        return head;
      }
      const rawName = text.slice(start, colon);
      // Every name the framing reads is 7 characters or more, and trimming only shortens one.
      const name = rawName.length >= 7 ? rawName.trim().toLowerCase() : '';
      if (name === 'content-length') {
        const value = text.slice(colon + 1, end).trim();
        if (!/^\d{1,15}$/.test(value) || (contentLength !== undefined && contentLength !== Number(value))) {
          this.#state = { kind: 'passthrough' };
          return head;
        }
        contentLength = Number(value);
      } else if (name === 'transfer-encoding') {
        if (!/(^|,)\s*chunked\s*$/i.test(text.slice(colon + 1, end).trim())) {
          this.#state = { kind: 'passthrough' };
          return head;
        }
        chunked = true;
      } else if (name === 'upgrade') {
        this.#state = { kind: 'passthrough' };
        return head;
      } else if (MARKER_NAME.test(rawName)) hasMarker = true;
      start = end + 2;
    }
    const method = requestLine[1]!.toUpperCase();
    if (chunked && contentLength !== undefined) this.#state = { kind: 'passthrough' };
    else if (method === 'CONNECT') this.#state = { kind: 'passthrough' };
    else if (chunked) this.#state = { kind: 'chunk-size' };
    else if (contentLength) this.#state = { kind: 'body', remaining: contentLength };
    else this.#state = { kind: 'head' };

    const extended = EXTENDED_VERBS.has(method);
    if (!extended && !hasMarker) return head;
    const lines = text.slice(0, stop).split('\r\n');
    const kept = lines.slice(1).filter((l) => !MARKER_RE.test(l));
    const first = extended ? `GET ${requestLine[2]} ${requestLine[3]}` : lines[0]!;
    const added = extended ? [`${VERB_HEADER}: ${method}`] : [];
    return Buffer.from([first, ...added, ...kept].join('\r\n') + '\r\n\r\n', 'latin1');
  }
}
