// What must never reach a log line: credentials in headers and query strings, card data, passwords.
export const REDACTED = '[redacted]';

const SENSITIVE_QUERY = /^(key|access_token|oauth_token|token|password|secret|client_secret|mac|cardnumber|card_number|cardnumber|csc|cvv|pan)$/i;

/** The URL with the values of sensitive query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeSafe(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && SENSITIVE_QUERY.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Pino redaction paths for headers and common body fields, shared by every listener. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-secrets-token"]',
  'req.headers["x-vault-token"]',
  'req.headers["pay-api-key"]',
  'req.headers["cp-api-key"]',
  'req.headers["pay-domain-key"]',
  'req.headers["cp-domain-key"]',
  'req.headers["x-goog-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.cardnumber',
  '*.csc',
  '*.licence_key',
  '*.mac',
];
