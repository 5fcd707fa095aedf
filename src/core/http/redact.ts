// What must never reach a log line: credentials in headers and query strings, card data, passwords.
export const REDACTED = '[redacted]';

const SENSITIVE_QUERY = /^(key|access_token|oauth_token|token|password|secret|client_secret|mac|cardnumber|card_number|cardnumber|csc|cvv|pan)$/i;

/** The URL with the values of sensitive query parameters replaced; the URL itself when none is there. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url.slice(q + 1).split('&');
  let changed = false;
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i];
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const raw = pair.slice(0, eq);
    // Most names are plain: decoding is paid only by one that has an escape.
    if (SENSITIVE_QUERY.test(raw.includes('%') ? decodeSafe(raw) : raw)) {
      pairs[i] = `${raw}=${REDACTED}`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${pairs.join('&')}` : url;
}

/** Names whose values are credentials, secrets or card data wherever they appear in a body, alone or as a suffix. */
const SENSITIVE_NAMES =
  'token|tokens|access_token|client_token|refresh_token|id_token|accessor|secret|secret_id|client_secret|password|passphrase|key|api_key|apikey|licence_key|license_key|private_key|unseal_key|keys|keys_base64|otp|nonce|mac|authorization|cookie|cardnumber|card_number|pan|csc|cvv|cvc|expmonth|expyear|expiry';

/** A body field named so (`oauth_token`, `x-api-key` as well), whose value the request inspector replaces. */
const SENSITIVE_FIELD = new RegExp(`^(.*[_-])?(${SENSITIVE_NAMES})$`, 'i');

/**
 * A JSON object key that SENSITIVE_FIELD (or SENSITIVE_QUERY, whose names it covers) would match, found in the text
 * itself: a name that starts the key or follows a `_` or `-`, then the key's closing quote and its colon. In a text
 * without escapes a quote followed by a colon always closes a key, so the rest of the key need not be read (a
 * `[^"]*[_-]` prefix made the expression three times slower, trying every split of every quoted text).
 */
const SENSITIVE_JSON_KEY = new RegExp(`["_-](?:${SENSITIVE_NAMES})"\\s*:`, 'i');

/** True when a body field or query parameter of this name carries a value that must never be shown or kept. */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_QUERY.test(name) || SENSITIVE_FIELD.test(name);
}

/**
 * False only when this JSON text has no `\\u` escape (which could spell a name) and no key isSensitiveName would
 * match. Other escapes cannot hide a name's letters: a text with line breaks or quotes in its strings (every error
 * report's stack trace) is still read by the expression instead of being redacted field by field.
 */
export function mayHoldSensitiveKey(jsonText: string): boolean {
  return jsonText.includes('\\u') || SENSITIVE_JSON_KEY.test(jsonText);
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
