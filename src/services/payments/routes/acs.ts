// The simulated issuer ACS of the sandbox. A browser posts `creq` here and sees a small challenge page; completing it
// delivers the result (RReq) to the gateway and carries `cres` back to the merchant's `merchant_termurl` by an
// auto-submitted form. Scripts and tests may post JSON instead and get `{cres}` straight away, as the real sandbox allows.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { decimalAmount } from '../domain/money.ts';
import type { Gateway } from '../gateway.ts';
import { MISC_SCHEMAS } from './misc-schemas.ts';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  `<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}button{margin-right:.5rem}</style>` +
  `</head><body>${body}</body></html>`;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function html(reply: FastifyReply, status: number, content: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(content);
}

export function acsRoutes(app: FastifyInstance, g: Gateway): void {
  app.post('/3dsv2/acs', MISC_SCHEMAS.acs, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const creq = str(body.creq);
    const session = str(body.threeDSSessionData) ?? '';
    const isJson = /json/i.test(String(req.headers['content-type'] ?? ''));
    const open = await g.processor.challengeFor(creq);
    if (isJson) {
      if (!open) return reply.code(400).send({ error: 'unknown or completed challenge' });
      const done = await g.processor.acsResult(creq, 'Y');
      return reply.send({ cres: done!.cres, threeDSSessionData: session });
    }
    if (!open) return html(reply, 400, page('Challenge not found', '<h1>This authentication request is unknown or already completed.</h1>'));
    const merchant = await g.merchants.get(open.view.merchantid);
    const amount = `${decimalAmount(open.view.amount, open.view.currency)} ${open.view.currency}`;
    return html(
      reply,
      200,
      page(
        '3-D Secure challenge',
        `<h1>Verify your payment</h1>` +
          `<p>Sandbox card issuer. Paying <strong id="acs-amount">${escapeHtml(amount)}</strong> to ` +
          `<strong id="acs-merchant">${escapeHtml(merchant?.name ?? String(open.view.merchantid))}</strong> with card ${escapeHtml(open.view.maskedpan)}.</p>` +
          `<form id="acs-form" method="post" action="/3dsv2/acs/result">` +
          `<input type="hidden" name="creq" value="${escapeHtml(creq!)}">` +
          `<input type="hidden" name="threeDSSessionData" value="${escapeHtml(session)}">` +
          `<p><label for="acs-otp">One-time passcode (any value in the sandbox)</label> <input id="acs-otp" name="otp" autocomplete="one-time-code"></p>` +
          `<button id="acs-authenticate" type="submit" name="transStatus" value="Y">Authenticate</button>` +
          `<button id="acs-cancel" type="submit" name="transStatus" value="N">Cancel</button>` +
          `</form>`,
      ),
    );
  });

  app.post('/3dsv2/acs/result', MISC_SCHEMAS.acsResult, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const creq = str(body.creq);
    const session = str(body.threeDSSessionData) ?? '';
    const done = await g.processor.acsResult(creq, str(body.transStatus) === 'Y' ? 'Y' : 'N');
    if (!done) return html(reply, 400, page('Challenge not found', '<h1>This authentication request is unknown.</h1>'));
    if (!done.termurl) {
      return html(reply, 200, page('Authentication complete', `<h1>Authentication complete</h1><p>Post this cres to /v6/cres:</p><pre id="cres">${escapeHtml(done.cres)}</pre>`));
    }
    return html(
      reply,
      200,
      page(
        'Returning to the merchant',
        `<form id="cres-form" method="post" action="${escapeHtml(done.termurl)}">` +
          `<input type="hidden" name="cres" value="${escapeHtml(done.cres)}">` +
          `<input type="hidden" name="threeDSSessionData" value="${escapeHtml(session)}">` +
          `<noscript><button type="submit">Continue</button></noscript></form>` +
          `<script>document.getElementById('cres-form').submit()</script>`,
      ),
    );
  });

  // The sandbox's shortcut for scripts: choose the ACS result directly and get the cres back as JSON.
  app.post('/3dsv2/gen-rreq', MISC_SCHEMAS.genRreq, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const transStatus = str(body.transStatus) ?? 'Y';
    const open = await g.processor.challengeFor(body.creq);
    if (!open) return reply.code(400).send({ error: 'unknown or completed challenge' });
    const done = await g.processor.acsResult(body.creq, transStatus);
    return reply.send({ cres: done!.cres, threeDSSessionData: str(body.threeDSSessionData) ?? '' });
  });
}
