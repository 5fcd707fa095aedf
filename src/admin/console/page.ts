// The console's one HTML page: an import map (so the browser modules can import "preact" and "htm" by name) and the
// entry module. Everything loads from this listener; a per-response nonce admits the import map and nothing else inline.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { sendHtml } from '../../core/http/html.ts';
import { VENDOR_MODULES } from './assets.ts';

const csp = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

export function sendConsolePage(reply: FastifyReply): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  const imports = Object.fromEntries(Object.keys(VENDOR_MODULES).map((name) => [name, `/console/vendor/${name}.js`]));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>twinstack console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/ui/console.css">
<script type="importmap" nonce="${nonce}">${JSON.stringify({ imports })}</script>
<script type="module" src="/console/ui/app.js"></script>
</head>
<body>
<div id="app"><p class="loading">Loading the console…</p></div>
<noscript>The console needs JavaScript. The admin API answers JSON on this same address.</noscript>
</body>
</html>`;
  return sendHtml(reply, html, 200, csp(nonce));
}
