// Google's HTTP batch endpoint through HTTP on real services: raw multipart/mixed bodies in, multipart/mixed answers
// out, one HTTP response per call in order; inherited and own credentials; a failing call among succeeding ones; the
// per-API limits; and malformed batches refused whole with nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const ALICE_TOKEN = 'batch-alice-token';
const ALICE = 'alice@example.test';
const T = { start: { dateTime: '2026-03-10T09:00:00Z' }, end: { dateTime: '2026-03-10T10:00:00Z' } };

interface Part {
  id?: string;
  /** The embedded HTTP request: request line, headers, blank line, body. */
  request: string;
  /** The part's own MIME headers, replacing `Content-Type: application/http`. */
  mime?: string[];
}

/** A multipart/mixed batch body, with CRLF line ends (or LF alone, as Python's client writes). */
function batchBody(boundary: string, parts: Part[], eol = '\r\n'): string {
  const out: string[] = [];
  for (const p of parts) {
    out.push(`--${boundary}`, ...(p.mime ?? ['Content-Type: application/http']), ...(p.id ? [`Content-ID: ${p.id}`] : []), '', p.request.replace(/\r?\n/g, eol));
  }
  out.push(`--${boundary}--`, '');
  return out.join(eol);
}

const json = (method: string, path: string, body: unknown, headers: string[] = []) =>
  [`${method} ${path} HTTP/1.1`, 'Content-Type: application/json', ...headers, '', JSON.stringify(body)].join('\r\n');
const get = (path: string, headers: string[] = []) => [`GET ${path} HTTP/1.1`, ...headers, '', ''].join('\r\n');

interface Answer {
  contentId?: string;
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: any;
}

/** Reads a batch answer the way Google's clients do: boundary from Content-Type, status line, headers, CRLF CRLF, body. */
function answersOf(res: { headers: Headers; text: string }): Answer[] {
  const boundary = /boundary=(.+)$/.exec(res.headers.get('content-type') ?? '')?.[1];
  assert.ok(boundary, `a multipart answer: ${res.headers.get('content-type')}`);
  const sections = res.text.split(`--${boundary}`);
  assert.equal(sections.at(-1), '--\r\n', 'ends with the closing boundary');
  return sections.slice(1, -1).map((section) => {
    const [mime, message] = splitOnce(section.replace(/^\r\n/, '').replace(/\r\n$/, ''), '\r\n\r\n');
    const mimeHeaders = headerMap(mime.split('\r\n'));
    assert.equal(mimeHeaders['content-type'], 'application/http');
    const [head, body] = splitOnce(message, '\r\n\r\n');
    const [statusLine, ...lines] = head.split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3}) (.+)$/.exec(statusLine);
    assert.ok(m, statusLine);
    const headers = headerMap(lines);
    assert.equal(Number(headers['content-length']), Buffer.byteLength(body));
    return { contentId: mimeHeaders['content-id'], status: Number(m[1]), reason: m[2], headers, body: body ? JSON.parse(body) : undefined };
  });
}

function splitOnce(s: string, on: string): [string, string] {
  const at = s.indexOf(on);
  assert.ok(at >= 0, `no ${JSON.stringify(on)} in ${JSON.stringify(s.slice(0, 200))}`);
  return [s.slice(0, at), s.slice(at + on.length)];
}

function headerMap(lines: string[]): Record<string, string> {
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
}

for (const database of DATABASES) {
  describe(`Google batch requests (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({
        services: ['calendar', 'files', 'errorreporting'],
        database,
        principals: [
          {
            id: 'alice',
            kind: 'user',
            name: 'Alice',
            attrs: { email: ALICE },
            credentials: [{ type: 'bearer', value: ALICE_TOKEN, scopes: ['https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/drive'] }],
          },
        ],
      });
    });
    after(async () => t.close());

    const send = (service: 'calendar' | 'files' | 'errorreporting', path: string, body: string, headers: Record<string, string> = {}) =>
      call(`${t.url(service)}${path}`, { method: 'POST', raw: body, headers: { 'content-type': 'multipart/mixed; boundary=batch_b', ...headers } });
    const calendarBatch = (parts: Part[], headers: Record<string, string> = { authorization: `Bearer ${DEV_TOKEN}` }) =>
      send('calendar', '/batch/calendar/v3', batchBody('batch_b', parts), headers);
    /** Every event of a user's primary calendar (ids, sorted). */
    const eventIds = async (token = DEV_TOKEN) => {
      const res = await call(`${t.url('calendar')}/calendar/v3/calendars/primary/events?showDeleted=true`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200, res.text);
      return (res.body.items as Array<{ id: string }>).map((e) => e.id).sort();
    };

    it('runs calendar calls in order: two inserts (one with its own Authorization) and a get of the first', async () => {
      const res = await calendarBatch([
        { id: '<b1+1>', request: json('POST', '/calendar/v3/calendars/primary/events', { id: 'batchone1', summary: 'one', ...T }) },
        { id: '<b1+2>', request: json('POST', '/calendar/v3/calendars/primary/events', { id: 'batchalice2', summary: 'two', ...T }, [`Authorization: Bearer ${ALICE_TOKEN}`]) },
        { id: 'third', request: get('calendars/primary/events/batchone1?fields=id,summary,organizer/email') },
      ]);
      assert.equal(res.status, 200, res.text);
      const answers = answersOf(res);
      assert.deepEqual(
        answers.map((a) => [a.contentId, a.status, a.reason]),
        [['<response-b1+1>', 200, 'OK'], ['<response-b1+2>', 200, 'OK'], ['response-third', 200, 'OK']],
      );
      assert.equal(answers[0].body.organizer.email, 'developer@twinstack.local', 'the outer Authorization is inherited');
      assert.equal(answers[1].body.organizer.email, ALICE, "a part's own Authorization wins");
      assert.deepEqual(answers[2].body, { id: 'batchone1', summary: 'one', organizer: { email: 'developer@twinstack.local' } });
      assert.match(answers[0].headers['content-type'], /^application\/json/);
      const ids = [res.headers.get('x-request-id'), ...answers.map((a) => a.headers['x-request-id'])];
      assert.equal(new Set(ids).size, 4, `each call is a request of its own, and its headers come back: ${ids}`);
      assert.deepEqual(await eventIds(), ['batchone1']);
      assert.deepEqual(await eventIds(ALICE_TOKEN), ['batchalice2']);
    });

    it('answers a failing call with its own error while the others succeed', async () => {
      const res = await calendarBatch([
        { id: '1', request: json('POST', '/calendar/v3/calendars/primary/events', { id: 'batchok3', ...T }) },
        { id: '2', request: get('/calendar/v3/calendars/primary/events/batchone1', ['Authorization: Bearer not-a-token']) },
        { id: '3', request: json('POST', '/calendar/v3/calendars/primary/events', { start: T.start }) },
        { id: '4', request: get('/calendar/v3/calendars/primary/events/nosuchevent') },
        { id: '5', request: get('/calendar/v3/calendars/primary/events/batchok3?fields=id') },
      ]);
      assert.equal(res.status, 200, res.text);
      const answers = answersOf(res);
      assert.deepEqual(answers.map((a) => a.status), [200, 401, 400, 404, 200]);
      assert.equal(answers[1].body.error.code, 401);
      assert.equal(answers[1].body.error.errors[0].reason, 'authError');
      assert.equal(answers[2].body.error.errors[0].reason, 'required');
      assert.equal(answers[3].body.error.errors[0].reason, 'notFound');
      assert.deepEqual(answers[4].body, { id: 'batchok3' });
      assert.deepEqual(await eventIds(), ['batchok3', 'batchone1']);
    });

    it('needs no credential on the batch itself: each call without one is refused on its own', async () => {
      const res = await calendarBatch([{ id: 'a', request: get('/calendar/v3/calendars/primary') }, { id: 'b', request: get('/calendar/v3/calendars/primary', [`Authorization: Bearer ${DEV_TOKEN}`]) }], {});
      const answers = answersOf(res);
      assert.deepEqual(answers.map((a) => a.status), [401, 200]);
      assert.equal(answers[0].body.error.status, 'UNAUTHENTICATED');
      assert.equal(answers[1].body.id, 'developer@twinstack.local');
    });

    it('runs Drive calls: files.insert of metadata, and files.get by absolute URL and relative path, as Python writes them (LF, quoted boundary)', async () => {
      const made = await call(`${t.url('files')}/drive/v2/files`, { body: { title: 'existing.txt', mimeType: 'text/plain' }, headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      assert.equal(made.status, 200, made.text);
      const boundary = '===============7330845974216740156==';
      const body = batchBody(
        boundary,
        [
          { id: '<f+1>', request: json('POST', '/drive/v2/files?alt=json', { title: 'from-batch', mimeType: 'application/vnd.google-apps.folder' }, ['MIME-Version: 1.0', 'Host: www.googleapis.com']) },
          { id: '<f+2>', request: get(`https://www.googleapis.com/drive/v2/files/${made.body.id}?alt=json`) },
          { id: '<f+3>', request: get(`files/${made.body.id}?fields=title`) },
        ].map((p) => ({ ...p, mime: ['Content-Type: application/http', 'MIME-Version: 1.0', 'Content-Transfer-Encoding: binary'] })),
        '\n',
      );
      const res = await send('files', '/batch/drive/v2', body, { 'content-type': `multipart/mixed; boundary="${boundary}"`, authorization: `Bearer ${DEV_TOKEN}` });
      assert.equal(res.status, 200, res.text);
      const answers = answersOf(res);
      assert.deepEqual(answers.map((a) => [a.contentId, a.status]), [['<response-f+1>', 200], ['<response-f+2>', 200], ['<response-f+3>', 200]]);
      assert.equal(answers[0].body.title, 'from-batch');
      assert.equal(answers[0].body.mimeType, 'application/vnd.google-apps.folder');
      assert.equal(answers[1].body.id, made.body.id);
      assert.ok(answers[1].body.selfLink.startsWith(t.url('files')), 'links name the listener the batch came to');
      assert.deepEqual(answers[2].body, { title: 'existing.txt' });
      const listed = await call(`${t.url('files')}/drive/v2/files?q=${encodeURIComponent("title = 'from-batch'")}`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      assert.deepEqual(listed.body.items.map((f: any) => f.id), [answers[0].body.id]);
    });

    it("serves a newer API's batch at its batchPath `batch` and at batch/<api>/<version>", async () => {
      for (const path of ['/batch', '/batch/clouderrorreporting/v1beta1']) {
        const res = await send('errorreporting', path, batchBody('batch_b', [{ id: 'x', request: get('/v1beta1/projects/demo/nothing-here') }]), { authorization: `Bearer ${DEV_TOKEN}` });
        assert.equal(res.status, 200, res.text);
        const [answer] = answersOf(res);
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error.code, 404);
      }
    });

    it('names batchPath in the discovery documents', async () => {
      const paths = await Promise.all(
        (['calendar', 'files', 'errorreporting'] as const).map(async (id) => (await call(`${t.url(id)}/$discovery/rest`)).body.batchPath),
      );
      assert.deepEqual(paths, ['batch/calendar/v3', 'batch/drive/v2', 'batch']);
    });

    const insertPart = (id: string): Part => ({ id, request: json('POST', '/calendar/v3/calendars/primary/events', { id, ...T }) });

    it('takes 50 calls in a Calendar batch and refuses 51 (100 and 101 for Drive), running none', async () => {
      const before = await eventIds();
      const fifty = await calendarBatch(Array.from({ length: 50 }, (_, i) => ({ id: String(i), request: get('/calendar/v3/calendars/primary?fields=id') })));
      assert.deepEqual(new Set(answersOf(fifty).map((a) => a.status)), new Set([200]));
      const over = await calendarBatch([insertPart('overlimit1'), ...Array.from({ length: 50 }, (_, i) => ({ id: String(i), request: get('/calendar/v3/calendars/primary') }))]);
      assert.equal(over.status, 400);
      assert.equal(over.body.error.code, 400);
      assert.equal(over.body.error.status, 'INVALID_ARGUMENT');
      assert.match(over.body.error.message, /51 calls; Calendar API takes at most 50/);
      assert.deepEqual(await eventIds(), before);

      const drive = (n: number) =>
        send('files', '/batch/drive/v2', batchBody('batch_b', Array.from({ length: n }, (_, i) => ({ id: String(i), request: get('/drive/v2/about?fields=kind') }))), { authorization: `Bearer ${DEV_TOKEN}` });
      assert.equal(answersOf(await drive(100)).length, 100);
      const driveOver = await drive(101);
      assert.equal(driveOver.status, 400);
      assert.match(driveOver.body.error.message, /101 calls; Google Drive API takes at most 100/);
    });

    it('refuses malformed batches whole with a 400 naming the problem, running none of their calls', async () => {
      const before = await eventIds();
      const good = insertPart('neverrun1');
      const auth = { authorization: `Bearer ${DEV_TOKEN}` };
      const cases: Array<[string, Promise<Awaited<ReturnType<typeof call>>>]> = [
        ['no boundary', send('calendar', '/batch/calendar/v3', batchBody('batch_b', [good]), { ...auth, 'content-type': 'multipart/mixed' })],
        ['not multipart/mixed', send('calendar', '/batch/calendar/v3', batchBody('batch_b', [good]), { ...auth, 'content-type': 'application/json' })],
        ['no closing boundary', send('calendar', '/batch/calendar/v3', batchBody('batch_b', [good]).replace('--batch_b--\r\n', ''), auth)],
        ['a part that is not application/http', calendarBatch([good, { ...insertPart('x'), mime: ['Content-Type: application/json'] }])],
        ['a part without Content-Type', calendarBatch([good, { ...insertPart('x'), mime: [] }])],
        ['an unparsable request line', calendarBatch([good, { request: 'hello there world again\r\n\r\n' }])],
        ['a method a batch cannot carry', calendarBatch([good, { request: get('/calendar/v3/calendars/primary').replace('GET', 'CONNECT') }])],
        ['a malformed header', calendarBatch([good, { request: get('/calendar/v3/calendars/primary', ['no colon here']) }])],
        ['a Content-Length beyond the part', calendarBatch([good, { request: json('POST', '/calendar/v3/calendars/primary/events', {}, ['Content-Length: 999']) }])],
        ['a nested batch', calendarBatch([good, { request: 'POST /batch/calendar/v3 HTTP/1.1\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n--z--' }])],
        ['another API', calendarBatch([good, { request: get('/drive/v2/files') }])],
        ['a path outside the API', calendarBatch([good, { request: get('/openapi.json') }])],
        ['a climb out of the API', calendarBatch([good, { request: get('/calendar/v3/%2e%2e/%2e%2e/discovery/v1/apis/calendar/v3/rest') }])],
        ['an upload path', send('files', '/batch/drive/v2', batchBody('batch_b', [{ request: json('POST', '/upload/drive/v2/files', {}) }]), auth)],
        ['an empty batch', send('calendar', '/batch/calendar/v3', '--batch_b--\r\n', auth)],
      ];
      for (const [what, pending] of cases) {
        const res = await pending;
        assert.equal(res.status, 400, `${what}: ${res.text}`);
        assert.equal(res.body.error.code, 400, what);
        assert.equal(res.body.error.errors[0].reason, 'badRequest', what);
        assert.ok(res.body.error.message.length > 20, `${what}: ${res.body.error.message}`);
      }
      assert.deepEqual(await eventIds(), before);
      const messages = await Promise.all([
        calendarBatch([good, { request: get('/drive/v2/files') }]),
        calendarBatch([good, { request: 'POST /batch/calendar/v3 HTTP/1.1\r\n\r\n' }]),
        send('calendar', '/batch/calendar/v3', batchBody('batch_b', [good]), { 'content-type': 'multipart/mixed' }),
      ]);
      assert.match(messages[0].body.error.message, /Batch part 2 requests \/drive\/v2\/files, which is not a method of Calendar API v3/);
      assert.match(messages[1].body.error.message, /Batch part 2 is itself a batch request/);
      assert.match(messages[2].body.error.message, /no boundary/);
      assert.deepEqual(await eventIds(), before);
    });
  });
}
