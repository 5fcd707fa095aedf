// The direct-post tokenisation flow in a real browser (headless Chromium). The test runs a small merchant shop of its
// own (node:http on an ephemeral port, on the host registered for the merchant's domain key): its checkout page posts
// the card, the MAC and the domain key straight to the gateway's /direct/tokenise, with redirect addresses back to the
// shop. The browser lands on the shop with a token, which the shop's server turns into an authorisation through
// /direct/token with its API key. One card is frictionless; another goes through the sandbox ACS challenge page, which
// hands the browser back to /direct/cres/tokenise/{id}. Tokens are single use, bound to their merchant and expire with
// the clock; the card number never reaches the shop, the token or an address the browser visits.
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { base58, unbase58 } from '../../src/core/ids.ts';
import { browserSuite, launchChromium } from '../helpers/browser.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, LICENCE, moveClock, OTHER_CLIENT, OTHER_LICENCE, startGateway } from './support.ts';

const MID = 46001;
const SISTER_MID = 46002;
const SHOP_NAME = 'Browser token shop';
/** The shop is reached as `localhost`, the host its domain key is registered for (the gateway is on 127.0.0.1). */
const SHOP_HOST = 'localhost';
const CARD = '4000000000000002';
const TOKEN = /^ct[1-9A-HJ-NP-Za-km-z]+$/;

interface Order {
  identifier: string;
  amount: number;
  nonce: string;
}

interface ShopRequest {
  method: string;
  url: string;
  body: string;
}

/** The merchant's side: a checkout page per order (the server prices it with the MAC), and the two return pages. */
class Shop {
  readonly orders = new Map<string, Order>();
  /** Every request the shop received, with its body: the card data must never be among them. */
  readonly received: ShopRequest[] = [];
  #server?: Server;
  origin = '';

  constructor(
    private readonly gateway: () => string,
    private readonly domainKey: () => string,
  ) {}

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      void readBody(req).then((body) => {
        this.received.push({ method: req.method ?? '', url: req.url ?? '', body });
        const url = new URL(req.url ?? '/', this.origin);
        const send = (status: number, html: string) => {
          res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(html);
        };
        if (req.method === 'GET' && url.pathname === '/checkout') return send(200, this.#checkout(Number(url.searchParams.get('amount') ?? '2500')));
        if (req.method === 'GET' && url.pathname === '/tokenised') return send(200, page('Card received', `<h1 id="outcome">Card received</h1>`));
        if (req.method === 'GET' && url.pathname === '/failed') {
          return send(200, page('Card refused', `<h1 id="outcome">Card refused</h1><p id="code">${escapeHtml(url.searchParams.get('code') ?? '')}</p>`));
        }
        return send(404, page('Not found', '<h1>Not found</h1>'));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://${SHOP_HOST}:${(this.#server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server!.close(() => resolve()));
  }

  /** A new order, priced by the server: the MAC over its fresh nonce, the amount and the identifier. */
  #checkout(amount: number): string {
    const order: Order = { identifier: `WEBTK-${randomBytes(5).toString('hex')}`, amount, nonce: randomBytes(12).toString('hex').toUpperCase() };
    this.orders.set(order.identifier, order);
    const mac = createHmac('sha256', Buffer.from(LICENCE, 'utf8')).update(`${order.nonce}${order.amount}${order.identifier}`, 'utf8').digest('hex').toUpperCase();
    const hidden: Record<string, string> = {
      'pay-domain-key': this.domainKey(),
      amount: String(order.amount),
      identifier: order.identifier,
      nonce: order.nonce,
      mac,
      redirect_success: `${this.origin}/tokenised`,
      redirect_failure: `${this.origin}/failed`,
    };
    const inputs = Object.entries(hidden)
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join('');
    // The browser data of 3-D Secure v2, filled in by the page as a checkout script would.
    const browserData = ['browserLanguage', 'browserScreenHeight', 'browserScreenWidth', 'browserColorDepth', 'browserTZ']
      .map((name) => `<input type="hidden" id="tds-${name}" name="threedsecure.${name}">`)
      .join('');
    return page(
      'Checkout',
      `<h1>Checkout</h1><p>Order <span id="identifier">${escapeHtml(order.identifier)}</span></p>` +
        `<form id="checkout" method="post" action="${escapeHtml(this.gateway())}/direct/tokenise">${inputs}${browserData}` +
        `<p><label for="name_on_card">Name on card</label> <input id="name_on_card" name="name_on_card"></p>` +
        `<p><label for="cardnumber">Card number</label> <input id="cardnumber" name="cardnumber" autocomplete="cc-number"></p>` +
        `<p><label for="expmonth">Expiry</label> <input id="expmonth" name="expmonth" size="2"> / <input id="expyear" name="expyear" size="4"></p>` +
        `<p><label for="csc">Security code</label> <input id="csc" name="csc" size="4"></p>` +
        `<button id="pay" type="submit">Pay</button></form>` +
        `<script>
          const set = (name, value) => { document.getElementById('tds-' + name).value = String(value); };
          set('browserLanguage', navigator.language);
          set('browserScreenHeight', screen.height);
          set('browserScreenWidth', screen.width);
          set('browserColorDepth', screen.colorDepth);
          set('browserTZ', new Date().getTimezoneOffset());
        </script>`,
    );
  }
}

for (const database of DATABASES) {
  browserSuite(`direct-post tokenisation in a browser (${database})`, () => {
    let t: TestRuntime;
    let browser: Browser;
    let domainKey = '';
    const shop = new Shop(
      () => t.url('payments'),
      () => domainKey,
    );

    before(async () => {
      t = await startGateway(database, undefined, [
        { merchantid: MID, clientid: CLIENT, name: SHOP_NAME, currency: 'GBP', three_d_secure: true },
        { merchantid: SISTER_MID, clientid: CLIENT, name: 'Sister shop', currency: 'GBP', three_d_secure: true },
      ]);
      const dk = await call(`${t.url('payments')}/dk/gen`, { body: { domain: [SHOP_HOST], merchantid: MID }, headers: { 'pay-api-key': caller(t).key() } });
      assert.equal(dk.status, 200, dk.text);
      domainKey = dk.body.domain_key;
      await shop.start();
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await shop.close();
      await t?.close();
    });

    /** What the shop's server does with a token: authorise it with its own API key. */
    const authorise = (token: string, client = CLIENT, licence = LICENCE) =>
      call(`${t.url('payments')}/direct/token`, { body: { token }, headers: { 'pay-api-key': caller(t, client, licence).key() } });

    /**
     * Opens the shop's checkout, enters the card and pays. `challenge` runs on the ACS page when the card needs one.
     * Answers the return page's address and every address the browser requested on the way.
     */
    const checkout = async (opts: { amount?: number; csc: string; challenge?: (page: Page) => Promise<void> }) => {
      const page = await browser.newPage();
      const visited: Array<{ method: string; url: string }> = [];
      page.on('request', (r) => visited.push({ method: r.method(), url: r.url() }));
      try {
        await page.goto(`${shop.origin}/checkout?amount=${opts.amount ?? 2500}`);
        const identifier = (await page.textContent('#identifier'))!;
        await page.fill('#name_on_card', 'A Cardholder');
        await page.fill('#cardnumber', '4000 0000 0000 0002');
        await page.fill('#expmonth', '12');
        await page.fill('#expyear', '2030');
        await page.fill('#csc', opts.csc);
        await page.click('#pay');
        if (opts.challenge) await opts.challenge(page);
        await page.waitForSelector('#outcome', { timeout: 15_000 });
        const landed = new URL(page.url());
        const outcome = await page.textContent('#outcome');
        return { identifier, landed, outcome, visited, order: shop.orders.get(identifier)! };
      } finally {
        await page.close();
      }
    };

    /** The card number is in no address the browser requested, no request the shop received, and not in the token. */
    const assertNoCardNumber = (visited: Array<{ url: string }>, token?: string) => {
      const spaced = '4000 0000 0000 0002';
      for (const { url } of visited) {
        const decoded = decodeURIComponent(url.replace(/\+/g, ' '));
        assert.ok(!decoded.includes(CARD) && !decoded.includes(spaced), `card number in a visited address: ${url}`);
      }
      for (const r of shop.received) {
        const text = decodeURIComponent(`${r.url} ${r.body}`.replace(/\+/g, ' '));
        assert.ok(!text.includes(CARD) && !text.includes(spaced), `card number reached the shop: ${r.method} ${r.url}`);
      }
      if (token !== undefined) {
        assert.ok(!token.includes(CARD));
        const bytes = unbase58(token.slice(2));
        assert.ok(bytes, 'the token is base58');
        assert.ok(!bytes.toString('latin1').includes(CARD) && !bytes.toString('hex').includes(CARD), 'card number inside the token');
      }
    };

    const sigId = (token: string, nonce: string) => base58(createHash('sha256').update(Buffer.concat([unbase58(token)!, Buffer.from(nonce, 'utf8')])).digest());

    it('tokenises a frictionless card in the browser; the shop server authorises the token once', async () => {
      const { identifier, landed, outcome, visited, order } = await checkout({ csc: '750' });
      assert.equal(landed.origin, shop.origin);
      assert.equal(landed.pathname, '/tokenised', landed.toString());
      assert.equal(outcome, 'Card received');
      const result = landed.searchParams;
      const token = result.get('token')!;
      assert.match(token, TOKEN);
      assert.equal(result.get('identifier'), identifier);
      assert.equal(result.get('sig_id'), sigId(token, order.nonce), 'the token answers the shop’s own post');
      assert.match(result.get('maskedpan')!, /^400000\*+0002$/);
      assert.equal(result.get('scheme'), 'Visa');
      assert.deepEqual([result.get('authen_result'), result.get('eci')], ['Y', '05'], 'frictionless 3-D Secure');
      assert.equal(result.get('authorised'), null, 'a token, not an authorisation');
      // The browser posted the card to the gateway itself, then came back by a GET.
      const posts = visited.filter((v) => v.method === 'POST').map((v) => new URL(v.url));
      assert.deepEqual(posts.map((u) => [u.origin, u.pathname]), [[new URL(t.url('payments')).origin, '/direct/tokenise']]);
      assert.ok(visited.some((v) => v.url.includes(token)), 'the return address is among the checked ones');
      assertNoCardNumber(visited, token);

      const auth = await authorise(token);
      assert.equal(auth.status, 200, auth.text);
      assert.equal(auth.body.authorised, true);
      assert.deepEqual([auth.body.merchantid, auth.body.amount, auth.body.identifier], [MID, 2500, identifier]);
      assert.deepEqual([auth.body.authen_result, auth.body.eci], ['Y', '05']);
      assert.ok(auth.body.transno > 0);
      assert.ok(!JSON.stringify(auth.body).includes(CARD));

      const again = await authorise(token);
      assert.deepEqual([again.status, again.body.code], [422, 'P052'], 'a token works once');
    });

    it('takes a challenged card through the ACS page and back to the shop with a token the server authorises', async () => {
      let acs: { merchant: string | null; amount: string | null; text: string } | undefined;
      const { identifier, landed, visited } = await checkout({
        amount: 1875,
        csc: '123',
        challenge: async (page) => {
          await page.waitForSelector('#acs-form', { timeout: 15_000 });
          acs = { merchant: await page.textContent('#acs-merchant'), amount: await page.textContent('#acs-amount'), text: (await page.textContent('body')) ?? '' };
          await page.fill('#acs-otp', '123456');
          await page.click('#acs-authenticate');
        },
      });
      assert.ok(acs, 'the browser reached the ACS page');
      assert.equal(acs.merchant, SHOP_NAME);
      assert.match(acs.amount ?? '', /18\.75/);
      assert.ok(!acs.text.includes(CARD), 'the ACS page shows the card masked');

      const gateway = new URL(t.url('payments')).origin;
      const posts = visited.filter((v) => v.method === 'POST').map((v) => new URL(v.url));
      assert.deepEqual(
        posts.map((u) => [u.origin, u.pathname.replace(/[0-9a-f-]{36}$/, '{id}')]),
        [
          [gateway, '/direct/tokenise'],
          [gateway, '/3dsv2/acs'],
          [gateway, '/3dsv2/acs/result'],
          [gateway, '/direct/cres/tokenise/{id}'],
        ],
        'the post, the ACS page, the challenge answer and the cres hand-back',
      );
      assert.equal(landed.origin, shop.origin);
      assert.equal(landed.pathname, '/tokenised', landed.toString());
      const token = landed.searchParams.get('token')!;
      assert.match(token, TOKEN);
      assert.equal(landed.searchParams.get('identifier'), identifier);
      assert.deepEqual([landed.searchParams.get('authen_result'), landed.searchParams.get('eci')], ['Y', '05'], 'authenticated by the challenge');
      assertNoCardNumber(visited, token);

      const auth = await authorise(token);
      assert.equal(auth.status, 200, auth.text);
      assert.deepEqual([auth.body.authorised, auth.body.amount, auth.body.identifier], [true, 1875, identifier]);
      assert.deepEqual([auth.body.authen_result, auth.body.eci], ['Y', '05']);
      assert.ok(auth.body.cavv, 'the challenge result travels into the authorisation');
      const again = await authorise(token);
      assert.deepEqual([again.status, again.body.code], [422, 'P052']);
    });

    it('sends a cancelled challenge back to the shop’s failure page without a token', async () => {
      const { landed, outcome, visited } = await checkout({
        csc: '123',
        challenge: async (page) => {
          await page.waitForSelector('#acs-form', { timeout: 15_000 });
          await page.click('#acs-cancel');
        },
      });
      assert.equal(landed.pathname, '/failed', landed.toString());
      assert.equal(outcome, 'Card refused');
      assert.equal(landed.searchParams.get('code'), '098');
      assert.equal(landed.searchParams.get('token'), null);
      assertNoCardNumber(visited);
    });

    it('refuses a token to another merchant (it stays usable by its own) and once it has expired', async () => {
      const first = await checkout({ csc: '750' });
      const second = await checkout({ csc: '750' });
      const token = first.landed.searchParams.get('token')!;
      const later = second.landed.searchParams.get('token')!;
      assert.match(token, TOKEN);
      assert.match(later, TOKEN);
      assertNoCardNumber([...first.visited, ...second.visited], token);

      let res = await authorise(token, OTHER_CLIENT, OTHER_LICENCE);
      assert.deepEqual([res.status, res.body.code], [403, 'S002'], "another client's merchant");
      const sisterKey = await call(`${t.url('payments')}/v6/authenticate`, { body: { clientid: CLIENT, licencekey: LICENCE, subject: String(SISTER_MID) } });
      assert.equal(sisterKey.status, 200, sisterKey.text);
      res = await call(`${t.url('payments')}/direct/token`, { body: { token }, headers: { 'pay-api-key': sisterKey.body.key } });
      assert.deepEqual([res.status, res.body.code], [403, 'S002'], 'a key acting for a sister merchant');
      res = await authorise(token);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.authorised, res.body.merchantid, res.body.identifier], [true, MID, first.identifier]);

      // A challenge left open past the token's lifetime: the clock moves while the card holder is on the ACS page.
      const stale = await checkout({
        csc: '123',
        challenge: async (page) => {
          await page.waitForSelector('#acs-form', { timeout: 15_000 });
          const moved = await moveClock(t, { advance: '11m' });
          assert.equal(moved.status, 200, moved.text);
          await page.click('#acs-authenticate');
        },
      });
      res = await authorise(later);
      assert.deepEqual([res.status, res.body.code], [422, 'P051'], 'a token lives 10 minutes');
      assert.equal(stale.landed.pathname, '/failed', stale.landed.toString());
      assert.equal(stale.landed.searchParams.get('code'), 'P051', 'a challenge must complete within the lifetime of the token');
      assert.equal(stale.landed.searchParams.get('token'), null);
    });
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}
