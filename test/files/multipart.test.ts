import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MultipartError, parseMediaType, parseMultipartRelated } from '../../src/services/files/domain/multipart.ts';

const BOUNDARY = 'f9a4b1c2-boundary';
const HEADER = `multipart/related; boundary=${BOUNDARY}`;

function body(parts: (string | Buffer)[], newline = '\r\n', boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) chunks.push(Buffer.from(`--${boundary}${newline}`), Buffer.from(part), Buffer.from(newline));
  chunks.push(Buffer.from(`--${boundary}--`));
  return Buffer.concat(chunks);
}

const jsonPart = (metadata: unknown, newline = '\r\n') => `Content-Type: application/json; charset=UTF-8${newline}${newline}${JSON.stringify(metadata)}`;
const mediaPart = (contentType: string, data: Buffer, newline = '\r\n') => Buffer.concat([Buffer.from(`Content-Type: ${contentType}${newline}${newline}`), data]);

function refuses(data: Buffer, header: string, message: RegExp) {
  assert.throws(() => parseMultipartRelated(data, header), (err: unknown) => err instanceof MultipartError && message.test(err.message));
}

describe('parseMultipartRelated', () => {
  it('reads the body the googleapis client sends', () => {
    const media = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    const parsed = parseMultipartRelated(body([jsonPart({ title: 'a.bin', parents: [{ id: 'root' }] }), mediaPart('application/octet-stream', media)]), HEADER);
    assert.deepEqual(parsed.metadata, { title: 'a.bin', parents: [{ id: 'root' }] });
    assert.equal(parsed.media.contentType, 'application/octet-stream');
    assert.deepEqual(parsed.media.data, media);
  });

  it('tolerates LF line breaks, preamble, epilogue, padding and header case', () => {
    const lf = Buffer.concat([
      Buffer.from('This is a preamble.\n'),
      Buffer.from(`--${BOUNDARY} \t\n`),
      Buffer.from('content-type: Application/JSON\n\n{"title":"t"}\n'),
      Buffer.from(`--${BOUNDARY}\n`),
      Buffer.from('CONTENT-TYPE: text/plain; charset=utf-8\n\nline one\nline two\n'),
      Buffer.from(`--${BOUNDARY}--\nepilogue`),
    ]);
    const parsed = parseMultipartRelated(lf, `Multipart/Related ; boundary = ${BOUNDARY}`);
    assert.deepEqual(parsed.metadata, { title: 't' });
    assert.equal(parsed.media.contentType, 'text/plain; charset=utf-8');
    assert.equal(parsed.media.data.toString(), 'line one\nline two');
  });

  it('accepts a quoted boundary with special characters', () => {
    const boundary = 'a:b=c; "d" e';
    const header = `multipart/related; type="application/json"; boundary="a:b=c; \\"d\\" e"`;
    const parsed = parseMultipartRelated(body([jsonPart({}), mediaPart('text/plain', Buffer.from('x'))], '\r\n', boundary), header);
    assert.equal(parsed.media.data.toString(), 'x');
  });

  it('keeps media lines that merely start like the boundary', () => {
    const media = Buffer.from(`--${BOUNDARY}X\r\n--${BOUNDARY}-x\r\n  --${BOUNDARY}\r\n`);
    assert.deepEqual(parseMultipartRelated(body([jsonPart({}), mediaPart('text/plain', media)]), HEADER).media.data, media);
  });

  it('defaults a media part without Content-Type and decodes base64 parts', () => {
    assert.equal(parseMultipartRelated(body([jsonPart({}), '\r\nraw']), HEADER).media.contentType, 'application/octet-stream');
    const encoded = `Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from([1, 2, 3]).toString('base64')}`;
    assert.deepEqual(parseMultipartRelated(body([jsonPart({}), encoded]), HEADER).media.data, Buffer.from([1, 2, 3]));
  });

  it('reads an empty media part', () => {
    assert.equal(parseMultipartRelated(body([jsonPart({ title: 'empty' }), 'Content-Type: text/plain\r\n\r\n']), HEADER).media.data.length, 0);
  });

  it('refuses a Content-Type without a usable boundary', () => {
    const ok = body([jsonPart({}), mediaPart('text/plain', Buffer.from('x'))]);
    refuses(ok, 'multipart/related', /no boundary parameter/);
    refuses(ok, 'multipart/related; boundary=""', /no boundary parameter/);
    refuses(ok, `multipart/form-data; boundary=${BOUNDARY}`, /must be sent as multipart\/related, not "multipart\/form-data"/);
    refuses(ok, `multipart/related; boundary=${'b'.repeat(71)}`, /longer than 70/);
    refuses(ok, 'multipart/related; boundary=other', /no delimiter line for the boundary "other"/);
  });

  it('refuses missing, extra and truncated parts', () => {
    refuses(body([jsonPart({})]), HEADER, /needs two parts \(metadata and media\); the body has 1/);
    refuses(Buffer.from(`--${BOUNDARY}--`), HEADER, /the body has 0/);
    refuses(body([jsonPart({}), mediaPart('text/plain', Buffer.from('x')), mediaPart('text/plain', Buffer.from('y'))]), HEADER, /exactly two parts.*has 3/);
    const whole = body([jsonPart({}), mediaPart('text/plain', Buffer.from('hello world'))]);
    refuses(whole.subarray(0, whole.length - 10), HEADER, /truncated: it has no closing delimiter/);
    refuses(Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n`), Buffer.from(jsonPart({}))]), HEADER, /truncated/);
    refuses(body([jsonPart({}), 'Content-Type: text/plain']), HEADER, /Part 2 has no blank line after its headers/);
    refuses(body([jsonPart({}), 'no colon here\r\n\r\nx']), HEADER, /Part 2 has a malformed header line "no colon here"/);
  });

  it('refuses metadata that is not JSON', () => {
    refuses(body(['Content-Type: application/json\r\n\r\n{"title": ', mediaPart('text/plain', Buffer.from('x'))]), HEADER, /metadata part is not valid JSON/);
    refuses(body(['Content-Type: application/json\r\n\r\n', mediaPart('text/plain', Buffer.from('x'))]), HEADER, /metadata part is not valid JSON/);
    refuses(body(['Content-Type: text/plain\r\n\r\n{}', mediaPart('text/plain', Buffer.from('x'))]), HEADER, /first part must be the application\/json metadata, not "text\/plain"/);
  });
});

describe('parseMultipartRelated properties', () => {
  const boundaryChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\'()+_,-./:=?'.split(''));
  const upload = fc.record({
    boundary: fc.string({ unit: boundaryChars, minLength: 16, maxLength: 70 }),
    quoted: fc.boolean(),
    newline: fc.constantFrom('\r\n', '\n'),
    metadata: fc.dictionary(fc.string(), fc.jsonValue()),
    contentType: fc.constantFrom('application/octet-stream', 'image/png', 'text/plain; charset=utf-8'),
    media: fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)),
  });

  it('round-trips random binary media and metadata with either line ending', () => {
    fc.assert(
      fc.property(upload, ({ boundary, quoted, newline, metadata, contentType, media }) => {
        fc.pre(!media.includes(Buffer.from(`--${boundary}`)));
        // With bare LF line endings, media that ends in CR is ambiguous (CR LF is the standard delimiter): the reader
        // takes the CR as part of the delimiter, as it must for standard bodies.
        fc.pre(newline === '\r\n' || media.at(-1) !== 0x0d);
        const data = body([jsonPart(metadata, newline), mediaPart(contentType, media, newline)], newline, boundary);
        const parsed = parseMultipartRelated(data, `multipart/related; boundary=${quoted ? `"${boundary}"` : boundary}`);
        assert.deepEqual(parsed.metadata, JSON.parse(JSON.stringify(metadata)));
        assert.equal(parsed.media.contentType, contentType);
        assert.ok(parsed.media.data.equals(media));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses every truncation of a body with MultipartError', () => {
    fc.assert(
      fc.property(upload, fc.nat(), ({ boundary, newline, metadata, media }, cut) => {
        fc.pre(!media.includes(Buffer.from(`--${boundary}`)));
        // With bare LF line endings, media that ends in CR is ambiguous (CR LF is the standard delimiter): the reader
        // takes the CR as part of the delimiter, as it must for standard bodies.
        fc.pre(newline === '\r\n' || media.at(-1) !== 0x0d);
        const data = body([jsonPart(metadata, newline), mediaPart('text/plain', media, newline)], newline, boundary);
        refuses(data.subarray(0, cut % data.length), `multipart/related; boundary="${boundary}"`, /./);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parseMediaType', () => {
  it('lower-cases the type and parameter names and unquotes values', () => {
    const { type, parameters } = parseMediaType('Text/HTML; Charset="utf-8"; q=0.5');
    assert.equal(type, 'text/html');
    assert.deepEqual([...parameters], [['charset', 'utf-8'], ['q', '0.5']]);
  });
});
