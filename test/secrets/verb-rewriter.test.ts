import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { VerbRewriter } from '../../src/services/secrets/http/verb-rewriter.ts';

interface Req {
  method: string;
  path: string;
  body: string;
  chunked: boolean;
  marker: boolean;
}

const serialise = (r: Req, method = r.method, extraHead: string[] = []): string => {
  const headers = ['Host: x', ...extraHead];
  if (r.marker) headers.push('X-Secrets-Verb: LIST');
  let body = '';
  if (r.chunked) {
    headers.push('Transfer-Encoding: chunked');
    const parts = r.body.length ? [r.body.slice(0, 3), r.body.slice(3)].filter(Boolean) : [];
    body = parts.map((p) => `${Buffer.byteLength(p, 'latin1').toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';
  } else if (r.body.length) {
    headers.push(`Content-Length: ${Buffer.byteLength(r.body, 'latin1')}`);
    body = r.body;
  }
  return `${method} ${r.path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n${body}`;
};

/** What the parser must receive: extended verbs become GET plus the marker; client markers are dropped. */
const expected = (r: Req): string => {
  const extended = ['LIST', 'HELP', 'SCAN'].includes(r.method);
  const clean = { ...r, marker: false };
  if (!extended) return serialise(clean);
  const text = serialise(clean, 'GET');
  const eol = text.indexOf('\r\n');
  return text.slice(0, eol) + `\r\nx-secrets-verb: ${r.method}` + text.slice(eol);
};

// Bodies deliberately include request-line look-alikes and CRLFs.
const bodyArb = fc.oneof(
  fc.constant(''),
  fc.constant('LIST /v1/evil HTTP/1.1\r\n\r\n'),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e\r\n]/g, 'a')),
);
const reqArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'LIST', 'HELP', 'SCAN', 'PATCH'),
  path: fc.stringMatching(/^\/v1\/[a-z0-9/]{0,12}$/),
  body: bodyArb,
  chunked: fc.boolean(),
  marker: fc.boolean(),
});

describe('LIST verb rewriting stage', () => {
  it('rewrites only request lines of pipelined requests, however the bytes are split', () => {
    fc.assert(
      fc.property(fc.array(reqArb, { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 30 }), (reqs, cuts) => {
        const input = Buffer.from(reqs.map((r) => serialise(r)).join(''), 'latin1');
        const rewriter = new VerbRewriter();
        const out: Buffer[] = [];
        let pos = 0;
        for (const cut of cuts) {
          if (pos >= input.length) break;
          out.push(...rewriter.push(input.subarray(pos, pos + cut)));
          pos += cut;
        }
        if (pos < input.length) out.push(...rewriter.push(input.subarray(pos)));
        assert.equal(Buffer.concat(out).toString('latin1'), reqs.map(expected).join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('passes malformed input through untouched so the HTTP parser rejects it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (junk) => {
        const input = Buffer.from(`GARBAGE\r\n\r\n${junk}`, 'latin1');
        const out = Buffer.concat(new VerbRewriter().push(input));
        assert.equal(out.toString('latin1'), input.toString('latin1'));
      }),
    );
  });

  it('switches to pass-through for conflicting lengths and upgrades', () => {
    for (const head of [
      'POST /a HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nLIST / HTTP/1.1\r\n\r\n',
      'GET /a HTTP/1.1\r\nUpgrade: websocket\r\n\r\nLIST / HTTP/1.1\r\n\r\n',
      'POST /a HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nLIST / HTTP/1.1\r\n\r\n',
    ]) {
      const out = Buffer.concat(new VerbRewriter().push(Buffer.from(head, 'latin1'))).toString('latin1');
      assert.equal(out, head);
    }
  });

  it('reads framing headers whatever their case and the blanks around their names, and only a marker at a line start', () => {
    const rewrite = (text: string) => Buffer.concat(new VerbRewriter().push(Buffer.from(text, 'latin1'))).toString('latin1');
    const body = 'LIST / HTTP/1.1\r\n\r\n';
    // The body is framed, so the request line inside it is never rewritten.
    for (const name of ['content-length', 'CONTENT-LENGTH', ' Content-Length', 'Content-Length \t', '\tcontent-Length ']) {
      const text = `POST /a HTTP/1.1\r\nHost: x\r\n${name}: ${body.length}\r\n\r\n${body}`;
      assert.equal(rewrite(text), text, JSON.stringify(name));
    }
    const chunked = `POST /a HTTP/1.1\r\n TRANSFER-encoding : gzip, chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    assert.equal(rewrite(chunked), chunked);
    // A client's own marker is dropped wherever its case and the blanks before the colon; one after a blank is no marker.
    assert.equal(rewrite('GET /a HTTP/1.1\r\nX-SECRETS-VERB \t: LIST\r\nHost: x\r\n\r\n'), 'GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(rewrite('GET /a HTTP/1.1\r\n x-secrets-verb: LIST\r\n\r\n'), 'GET /a HTTP/1.1\r\n x-secrets-verb: LIST\r\n\r\n');
    // A line without a name before its colon, or with no colon, hands the rest to the parser as it is.
    for (const text of [`GET /a HTTP/1.1\r\n: x\r\n\r\n${body}`, `GET /a HTTP/1.1\r\nno colon here\r\n\r\n${body}`, `GET /a HTTP/1.1\r\nHost x\r\nA: b:c\r\n\r\n${body}`]) {
      assert.equal(rewrite(text), text, JSON.stringify(text));
    }
  });
});
