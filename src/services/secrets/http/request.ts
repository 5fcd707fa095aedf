// Decoding an HTTP request into the router's input: method and query to operation, headers (X-Secrets-* with the
// X-Vault-* aliases and Authorization: Bearer), and the lenient body rules (JSON without content type, form bodies).
import { parseJsonBody } from '../../../core/http/json-body.ts';
import { holdsInexactNumbers, parseExact } from '../exact-numbers.ts';
import { SecretsError, badRequest } from '../contract.ts';
import type { RoutedInput } from './router.ts';
import { VERB_HEADER } from './verb-rewriter.ts';

type Headers = Record<string, string | string[] | undefined>;

/** An own data property, also for names such as `__proto__`. */
function setField(target: Record<string, unknown>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The header names of each X-Secrets-* header read on every request, and its X-Vault-* alias. */
const HEADER_NAMES = { token: ['x-secrets-token', 'x-vault-token'], namespace: ['x-secrets-namespace', 'x-vault-namespace'] } as const;

/**
 * The value of an X-Secrets-* header or its X-Vault-* alias. The names are constants: a name built per request is a
 * new string that each header lookup hashes again.
 */
export function secretsHeader(headers: Headers, name: keyof typeof HEADER_NAMES): string | undefined {
  const [own, alias] = HEADER_NAMES[name];
  const v = headers[own] ?? headers[alias];
  return Array.isArray(v) ? v[0] : v;
}

export function clientToken(headers: Headers): string {
  const direct = secretsHeader(headers, 'token');
  if (direct) return direct.trim();
  const auth = headers.authorization;
  const value = Array.isArray(auth) ? auth[0] : auth;
  const bearer = value && /^Bearer\s+(.+)$/i.exec(value);
  return bearer ? bearer[1]!.trim() : '';
}

/** Go's ParseBool; undefined for absent; 400 with no message for garbage (as Vault answers). */
function queryBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False', ''].includes(value)) return false;
  throw new SecretsError(400, []);
}

/** A verb the HTTP layer does not map to an operation (SCAN, Bao's paginated listing, included): 405, no text. */
const methodNotAllowed = () => new SecretsError(405, []);

export function operationOf(method: string, headers: Headers, query: Record<string, string>): RoutedInput['operation'] {
  const verb = String(headers[VERB_HEADER] ?? '').toUpperCase();
  if (verb === 'SCAN') throw methodNotAllowed();
  if (verb === 'LIST') return 'list';
  if (verb === 'HELP') return 'help';
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const list = queryBool(query.list);
      if (queryBool(query.scan)) throw methodNotAllowed();
      if (queryBool(query.help)) return 'help';
      return list ? 'list' : 'read';
    }
    case 'POST':
    case 'PUT':
      return 'write';
    case 'PATCH': {
      const type = String(headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/merge-patch+json') {
        throw new SecretsError(415, 'PATCH requires Content-Type application/merge-patch+json');
      }
      return 'patch';
    }
    case 'DELETE':
      return 'delete';
    default:
      throw methodNotAllowed();
  }
}

/** Body to data: empty is `{}`; JSON without content type; form bodies when they do not look like JSON. */
export function decodeBody(body: Buffer | undefined, contentType: string | undefined): Record<string, unknown> {
  if (!body || body.length === 0) return {};
  const text = body.toString('utf8');
  const trimmed = text.trimStart();
  const form = /^application\/x-www-form-urlencoded/i.test(contentType ?? '');
  if (form && !trimmed.startsWith('{') && !trimmed.startsWith('[')) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(text)) setField(out, k, v);
    return out;
  }
  if (trimmed === '') return {};
  let parsed: unknown;
  try {
    parsed = parseJsonBody(text);
  } catch (err) {
    throw badRequest(`failed to decode JSON input: ${(err as Error).message}`);
  }
  // Well-formed and free of prototype keys: parsed again, exactly, when a number's text would not survive a double.
  // Should the exact parser refuse what the plain one took, the plain value stands.
  if (holdsInexactNumbers(text)) {
    try {
      parsed = parseExact(text);
    } catch {
      // the plain parse above
    }
  }
  if (parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest(`failed to decode JSON input: json: cannot unmarshal ${Array.isArray(parsed) ? 'array' : typeof parsed} into Go value of type map[string]interface {}`);
  }
  return parsed as Record<string, unknown>;
}

/** Query fields as request data for GET, DELETE and LIST (without the method switches). */
export function queryData(query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) if (k !== 'list' && k !== 'help') setField(out, k, v);
  return out;
}

/** `/v1/a%2Fb?x` → path `a/b` (decoded) and query; null when not under /v1/. Non-printable characters → 400. */
export function splitUrl(url: string): { path: string; query: Record<string, string> } | null {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  if (rawPath !== '/v1' && !rawPath.startsWith('/v1/')) return null;
  let path = rawPath.slice(4);
  // Most paths carry no escape: decoding them would only copy them.
  if (path.includes('%')) {
    try {
      path = decodeURIComponent(path);
    } catch {
      throw badRequest('invalid path encoding');
    }
  }
  if (/[\x00-\x1f\x7f]/.test(path)) throw badRequest('path cannot contain non-printable characters');
  const query: Record<string, string> = {};
  if (q >= 0 && q < url.length - 1) for (const [k, v] of new URLSearchParams(url.slice(q + 1))) if (!Object.prototype.hasOwnProperty.call(query, k)) setField(query, k, v);
  return { path, query };
}
