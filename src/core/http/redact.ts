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

/**
 * Field names whose values are credentials, secrets or card data wherever they appear in a body (the request
 * inspector keeps bodies with these values replaced).
 */
const SENSITIVE_FIELD =
  /^(.*[_-])?(token|tokens|access_token|client_token|refresh_token|id_token|accessor|secret|secret_id|client_secret|password|passphrase|key|api_key|apikey|licence_key|license_key|private_key|unseal_key|keys|keys_base64|otp|nonce|mac|authorization|cookie|cardnumber|card_number|pan|csc|cvv|cvc|expmonth|expyear|expiry)$/i;

/** True when a body field or query parameter of this name carries a value that must never be shown or kept. */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_QUERY.test(name) || SENSITIVE_FIELD.test(name);
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
