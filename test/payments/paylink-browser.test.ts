// A real browser (headless Chromium) pays a Paylink through the hosted page: it passes the field guard, enters a
// card and pays; a second token is paid through a 3-D Secure challenge on the gateway's ACS page.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSuite, launchChromium } from '../helpers/browser.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, startGateway } from './support.ts';

const MID = 45001;
const MID_3DS = 45002;

for (const database of DATABASES) {
  browserSuite(`paylink in a browser (${database})`, () => {
    let t: TestRuntime;
    let browser: Browser;

    before(async () => {
      t = await startGateway(database, undefined, [
        { merchantid: MID, clientid: CLIENT, name: 'Acme Water', currency: 'GBP', three_d_secure: false },
        { merchantid: MID_3DS, clientid: CLIENT, name: 'Acme Secure', currency: 'GBP', three_d_secure: true },
      ]);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    const create = async (body: Record<string, unknown>) => {
      const res = await call(`${t.url('payments')}/paylink/create`, {
        body: { amount: 5025, identifier: `WEB-${randomBytes(4).toString('hex')}`, ...body },
        headers: { 'pay-api-key': caller(t).key() },
      });
      assert.equal(res.status, 200, res.text);
      return res.body as { token: string; url: string };
    };
    const status = async (token: string) =>
      (await caller(t).get(`/paylink/${token}/status`)).body;

    it('passes the field guard and pays with a card', async () => {
      const { token, url } = await create({ merchantid: MID, cardholder: { lastname: 'Ångström' }, config: { field_guard: [{ name: 'lastname', label: 'Surname' }] } });
      const page = await browser.newPage();
      try {
        await page.goto(url);
        await page.fill('#guard-lastname', 'Wrong');
        await page.click('#continue');
        assert.match((await page.textContent('#error')) ?? '', /do not match/);
        await page.fill('#guard-lastname', 'angstrom');
        await page.click('#continue');
        await page.waitForSelector('#payment-form');
        await page.fill('#name_on_card', 'A Angstrom');
        await page.fill('#cardnumber', '4000 0000 0000 0002');
        await page.selectOption('#expmonth', '12');
        await page.fill('#expyear', '2030');
        await page.fill('#csc', '123');
        await page.click('#pay');
        await page.waitForSelector('#title');
        assert.equal(await page.textContent('#title'), 'Payment complete');
        // The access cookie is scoped to this merchant and the hosted pages.
        const cookies = await page.context().cookies();
        assert.ok(cookies.some((c) => c.name === `paylink_access_${MID}` && c.httpOnly && c.path === '/pay/'));
      } finally {
        await page.close();
      }
      const s = await status(token);
      assert.equal(s.is_paid, true);
      assert.equal(s.is_validated, true);
      assert.equal(s.amount_paid, 5025);
    });

    it('pays through a 3-D Secure challenge', async () => {
      const { token, url } = await create({ merchantid: MID_3DS });
      const page = await browser.newPage();
      try {
        await page.goto(url);
        await page.fill('#cardnumber', '4000000000000002');
        await page.fill('#expyear', '2030');
        await page.fill('#csc', '123');
        await page.click('#pay');
        // The gateway's simulated ACS: complete the challenge as the card holder would.
        await completeAcsChallenge(page);
        await page.waitForSelector('#title', { timeout: 15_000 });
        assert.equal(await page.textContent('#title'), 'Payment complete');
      } finally {
        await page.close();
      }
      const s = await status(token);
      assert.equal(s.is_paid, true);
      assert.equal(s.is_request_challenged, true);
    });
  });
}

/** Approves the challenge on the sandbox ACS page as the card holder would. */
async function completeAcsChallenge(page: import('playwright-core').Page): Promise<void> {
  await page.waitForSelector('#acs-form');
  await page.fill('#acs-otp', '123456');
  await page.click('#acs-authenticate');
}
