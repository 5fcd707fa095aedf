// The request inspector: bounded per service by bytes and entries, filterable, and it never keeps credentials,
// secrets or card numbers; over HTTP, what services answered is listed and followed through server-sent events.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BODY_CHARS, RequestInspector, type RawExchange } from '../../src/core/http/inspector.ts';
import { call, DATABASES, DEV_API_KEY, DEV_TOKEN, type TestRuntime } from '../helpers/runtime.ts';
import { authRequest, caller, VISA } from '../payments/support.ts';
import { MERCHANT, startConsoleRuntime } from './support.ts';

const exchange = (over: Partial<RawExchange> = {}): RawExchange => ({
  service: 'catalog',
  requestId: 'r',
  at: Date.parse('2026-01-01T00:00:00Z'),
  method: 'GET',
  url: '/x',
  status: 200,
  ms: 1.23,
  principal: null,
  request: { contentType: undefined, body: undefined },
  response: { contentType: 'application/json; charset=utf-8', body: '{"ok":true}' },
  ...over,
});

describe('request inspector', () => {
  it('keeps each service within its byte budget and entry count, dropping the oldest', () => {
    const inspector = new RequestInspector({ bytesPerService: 20_000, entriesPerService: 50 });
    const big = JSON.stringify({ text: 'x'.repeat(2_000) });
    for (let i = 0; i < 100; i++) inspector.record(exchange({ url: `/big/${i}`, response: { contentType: 'application/json', body: big } }));
    for (let i = 0; i < 100; i++) inspector.record(exchange({ service: 'books', url: `/small/${i}` }));
    const usage = inspector.usage();
    assert.ok(usage.catalog.bytes <= 20_000, `catalog holds ${usage.catalog.bytes} bytes`);
    assert.ok(usage.catalog.entries < 20);
    assert.equal(usage.catalog.recorded, 100);
    assert.equal(usage.books.entries, 50);
    const kept = inspector.list({ service: 'catalog' });
    assert.equal(kept[kept.length - 1].path, '/big/99');
    assert.equal(inspector.list({ service: 'books' })[0].path, '/small/50');
  });

  it('redacts credentials, secrets and card numbers in bodies and query strings', () => {
    const inspector = new RequestInspector();
    const e = inspector.record(
      exchange({
        method: 'POST',
        url: `/v1/x?key=${DEV_API_KEY}&q=ok`,
        request: { contentType: 'application/json', body: { cardnumber: VISA, csc: '123', note: `card ${VISA.replace(/(\d{4})/g, '$1 ')}`, nested: { client_token: 'hvs.abc', password: 'pw' }, id: '1700000000000' } },
        response: { contentType: 'application/json', body: JSON.stringify({ auth: { client_token: 'hvs.def', accessor: 'acc' }, licence_key: 'LK', pageToken: 'p1' }) },
      }),
    );
    const text = JSON.stringify(e);
    for (const secret of [DEV_API_KEY, VISA, '123"', 'hvs.abc', 'hvs.def', '"pw"', 'LK', '"acc"']) assert.ok(!text.includes(secret), `${secret} is not kept`);
    assert.ok(e.path.endsWith('q=ok'));
    assert.ok(e.requestBody!.includes('1700000000000'), 'digit runs that are not card numbers stay');
    assert.ok(e.responseBody!.includes('"pageToken":"p1"'), 'page tokens are not credentials');
  });

  it('keeps a body with nothing sensitive as sent, and still redacts one whose sensitive key is escaped, spaced or near the cut', () => {
    const inspector = new RequestInspector();
    const plain = '{\n  "kind": "calendar#event",\n  "summary": "Stand-up",\n  "sequence": 1700000000000\n}';
    assert.equal(inspector.record(exchange({ response: { contentType: 'application/json', body: plain } })).responseBody, plain);
    const bodies = [
      '{"\\u0070assword": "hunter2"}',
      '{"Client_Secret"  :  "hunter2"}',
      '{"x-api-key":"hunter2"}',
      `{"pad":"${'x'.repeat(8_170)}","password":"hunter2"}`,
      `{"note":"card ${VISA}"}`,
      `{"pad":"${'x'.repeat(8_180)} ${VISA}"}`,
    ];
    for (const body of bodies) {
      const e = inspector.record(exchange({ response: { contentType: 'application/json', body }, request: { contentType: 'application/json', body: JSON.parse(body) } }));
      for (const kept of [e.requestBody!, e.responseBody!]) {
        assert.ok(!kept.includes('hunter2') && !kept.includes(VISA), `${body.slice(-40)} is redacted: ${kept.slice(-60)}`);
        assert.ok(!kept.includes(VISA.slice(0, 13)), 'no card number is cut into a shorter run');
      }
    }
  });

  it('keeps no body of the secrets store and only describes bodies it cannot redact', () => {
    const inspector = new RequestInspector();
    const s = inspector.record(exchange({ service: 'secrets', request: { contentType: 'application/json', body: { data: { db: 'hunter2' } } }, response: { contentType: 'application/json', body: '{"data":{"db":"hunter2"}}' } }));
    assert.ok(!JSON.stringify(s).includes('hunter2'));
    const xml = inspector.record(exchange({ request: { contentType: 'application/xml', body: `<cardnumber>${VISA}</cardnumber>` } }));
    assert.match(xml.requestBody!, /^\[application\/xml body, \d+ bytes, not kept\]$/);
  });

  it('only describes bodies too large to redact cheaply', () => {
    const inspector = new RequestInspector();
    const big = { rows: Array.from({ length: 20_000 }, (_, i) => ({ i, cardnumber: VISA })) };
    const e = inspector.record(exchange({ method: 'POST', request: { contentType: 'application/json', body: big, bytes: JSON.stringify(big).length }, response: { contentType: 'application/json', body: JSON.stringify(big) } }));
    assert.match(e.requestBody!, /^\[application\/json body, \d+ bytes, too large to keep\]$/);
    assert.match(e.responseBody!, /too large to keep/);
  });

  it('keeps only the cut of a long body, not the body it was cut from', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const inspector = new RequestInspector();
    gc();
    const before = process.memoryUsage().heapUsed;
    // 60 bodies of 200 KB (under the redaction limit, so each is cut to BODY_CHARS): 12 MB if the cuts held them.
    for (let i = 0; i < 60; i++) {
      const body = JSON.stringify({ n: i, text: `${i}`.padEnd(200_000, 'x') });
      const e = inspector.record(exchange({ response: { contentType: 'application/json', body } }));
      assert.equal(e.responseBody!.length, BODY_CHARS + ` [${body.length - BODY_CHARS} more characters not kept]`.length + 1);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    assert.ok(grown < 4 * 1024 * 1024, `the inspector holds ${grown} bytes for 60 cut bodies`);
  });

  it('gives each entry the time of its own request, within a millisecond and across them in any order', () => {
    const inspector = new RequestInspector();
    const base = Date.parse('2026-03-04T05:06:07.008Z');
    const times = [base + 0.2, base + 0.9, base + 1.1, base + 0.5, base - 60_000.7, base + 86_400_000];
    const entries = times.map((at) => inspector.record(exchange({ at })));
    assert.deepEqual(
      entries.map((e) => e.at),
      ['2026-03-04T05:06:07.008Z', '2026-03-04T05:06:07.008Z', '2026-03-04T05:06:07.009Z', '2026-03-04T05:06:07.008Z', '2026-03-04T05:05:07.007Z', '2026-03-05T05:06:07.008Z'],
    );
  });

  it('finds a card number anywhere in a path, however often paths without one came before', () => {
    const inspector = new RequestInspector();
    // 1700000000000 fails the Luhn check: an id, kept.
    for (let i = 0; i < 5; i++) assert.equal(inspector.record(exchange({ url: `/v6/tx${i}/1700000000000` })).path, `/v6/tx${i}/1700000000000`);
    assert.equal(inspector.record(exchange({ url: `/v6/cards/${VISA}/x` })).path, '/v6/cards/[redacted]/x');
    assert.equal(inspector.record(exchange({ url: `/v6/cards/${VISA}/x/${VISA}` })).path, '/v6/cards/[redacted]/x/[redacted]');
  });

  it('describes a path and a body sent again as the first time, redacted ones each time', () => {
    const inspector = new RequestInspector();
    const plain = JSON.stringify({ name: 'x', note: 'y'.repeat(BODY_CHARS) });
    const card = JSON.stringify({ cardnumber: VISA, note: `paid with ${VISA}` });
    const sequence = [
      ['/a?key=secret-key', plain],
      ['/a?key=secret-key', plain],
      [`/pay/${VISA}`, card],
      [`/pay/${VISA}`, card],
      ['/a?x=1', '{"x":1}'],
      ['/a?x=1', '{"x":1}'],
    ];
    const entries = sequence.map(([url, body]) => inspector.record(exchange({ url, response: { contentType: 'application/json', body } })));
    for (const i of [0, 2, 4]) {
      assert.equal(entries[i + 1].path, entries[i].path);
      assert.equal(entries[i + 1].responseBody, entries[i].responseBody);
    }
    assert.equal(entries[1].path, '/a?key=[redacted]');
    assert.ok(entries[1].responseBody!.startsWith('{"name":"x","note":"yyy') && entries[1].responseBody!.endsWith('more characters not kept]'));
    assert.equal(entries[3].path, '/pay/[redacted]');
    assert.equal(entries[3].responseBody, '{"cardnumber":"[redacted]","note":"paid with [redacted]"}');
    assert.equal(entries[5].responseBody, '{"x":1}');
    // A new text after a remembered one is described anew.
    assert.equal(inspector.record(exchange({ url: '/b', response: { contentType: 'application/json', body: '{"y":2}' } })).responseBody, '{"y":2}');
  });

  it('filters by service, method, path and status class', () => {
    const inspector = new RequestInspector();
    inspector.record(exchange({ method: 'GET', url: '/a', status: 200 }));
    inspector.record(exchange({ method: 'POST', url: '/b', status: 404 }));
    inspector.record(exchange({ service: 'files', method: 'POST', url: '/b', status: 500 }));
    assert.deepEqual(inspector.list({ status: '4xx' }).map((e) => e.path), ['/b']);
    assert.deepEqual(inspector.list({ method: 'post' }).map((e) => e.service), ['catalog', 'files']);
    assert.deepEqual(inspector.list({ service: 'catalog', path: 'A' }).map((e) => e.status), [200]);
  });
});

for (const database of DATABASES) {
  describe(`request inspector over HTTP (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startConsoleRuntime(database);
    });
    after(async () => {
      await t?.close();
    });

    it('lists what each service answered, with the principal and without credentials', async () => {
      await call(`${t.url('entities')}/v1/entities:search?query=paris&key=${DEV_API_KEY}`);
      await call(`${t.url('errorreporting')}/v1beta1/projects/console/groupStats`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
      const sale = await caller(t).post('/v6/authorise', authRequest({ merchantid: MERCHANT }));
      assert.equal(sale.status, 200, sale.text);
      const res = await call(`${t.adminUrl}/console/api/requests`);
      assert.equal(res.status, 200);
      const byService = Object.fromEntries(res.body.requests.map((r: { service: string }) => [r.service, r]));
      assert.equal(byService.entities.principal, 'developer');
      assert.match(byService.entities.path, /key=\[redacted\]/);
      assert.equal(byService.errorreporting.principal, 'developer');
      assert.equal(byService.payments.method, 'POST');
      assert.equal(byService.payments.principal, 'client DEV001', 'a payment key names its client');
      for (const secret of [DEV_API_KEY, DEV_TOKEN, VISA]) assert.ok(!res.text.includes(secret));
      // The console's own reads of a service are not traffic and are not listed.
      await call(`${t.adminUrl}/console/api/entities/search?query=paris`);
      const again = await call(`${t.adminUrl}/console/api/requests?service=entities`);
      assert.equal(again.body.requests.length, 1);
    });

    it('names a secrets-store caller by its token display name and accessor, never the token', async () => {
      const overview = await call(`${t.adminUrl}/console/api/overview`);
      const rootToken: string = overview.body.services.find((s: { id: string }) => s.id === 'secrets').credentials[0].value;
      const lookup = await call(`${t.url('secrets')}/v1/auth/token/lookup-self`, { headers: { 'x-vault-token': rootToken } });
      assert.equal(lookup.status, 200, lookup.text);
      const res = await call(`${t.adminUrl}/console/api/requests?service=secrets`);
      const seen = res.body.requests.find((r: { path: string }) => r.path.includes('lookup-self'));
      assert.equal(seen.principal, `root (accessor ${lookup.body.data.accessor})`);
      assert.ok(!res.text.includes(rootToken));
    });

    it('streams new requests as server-sent events, resuming after Last-Event-ID', async () => {
      await call(`${t.url('entities')}/v1/entities:search?query=lisbon&key=${DEV_API_KEY}`);
      const first = (await call(`${t.adminUrl}/console/api/requests?service=entities`)).body.requests.at(-1);
      const controller = new AbortController();
      const res = await fetch(`${t.adminUrl}/console/api/requests/stream?service=entities`, { signal: controller.signal, headers: { 'last-event-id': String(first.seq - 1) } });
      assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      const reader = res.body!.getReader();
      const seen: string[] = [];
      const decoder = new TextDecoder();
      const until = async (predicate: () => boolean) => {
        while (!predicate()) {
          const { value, done } = await reader.read();
          if (done) break;
          seen.push(decoder.decode(value));
        }
      };
      await until(() => seen.join('').includes(`id: ${first.seq}\n`));
      await call(`${t.url('entities')}/v1/entities:search?query=berlin&key=${DEV_API_KEY}`);
      await call(`${t.url('payments')}/v6/ping`, { method: 'POST', body: {} });
      await until(() => seen.join('').includes('query=berlin'));
      await reader.cancel();
      controller.abort();
      const events = seen.join('').split('\n\n').filter((chunk) => chunk.includes('event: request'));
      assert.equal(events.length, 2);
      assert.ok(!seen.join('').includes('/v6/ping'), 'the stream follows its filter');
    });

    // Without that, stopping would wait for the stream forever: the generous limit turns a hang into a failure.
    it('ends open streams when the runtime stops, so stopping does not wait for browsers', { timeout: 60_000 }, async () => {
      const res = await fetch(`${t.adminUrl}/console/api/requests/stream`);
      const reader = res.body!.getReader();
      await reader.read();
      await t.restart();
      let done = false;
      while (!done) done = (await reader.read()).done;
      assert.ok(done);
    });
  });
}
