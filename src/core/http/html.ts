// Small HTML helpers for pages a service serves to browsers (hosted forms, redirect hops). Every value placed in a
// page goes through `escapeHtml`; pages carry a strict Content-Security-Policy and are never cached.
import type { FastifyReply } from 'fastify';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

const INLINE_ONLY_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action *; frame-ancestors 'none'";

/**
 * Sends an HTML page with headers that keep it out of caches and frames and allow only its own inline script (or
 * what the given Content-Security-Policy allows).
 */
export function sendHtml(reply: FastifyReply, html: string, status = 200, csp = INLINE_ONLY_CSP): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', csp)
    .send(html);
}

/**
 * A page that POSTs `fields` to `action` as a form as soon as it loads (how a browser is handed to another site,
 * such as a 3-D Secure ACS), with a button for browsers that run no script.
 */
export function autoPostPage(title: string, action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n    ');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body onload="document.forms[0].submit()">
  <form method="post" action="${escapeHtml(action)}">
    ${inputs}
    <noscript><button type="submit">Continue</button></noscript>
  </form>
</body>
</html>`;
}
