// Credentials of the Google-style APIs: an API key (`key=` or `x-goog-api-key`) or an OAuth bearer token
// (`Authorization: Bearer`, `access_token=`, `oauth_token=`) whose scopes are checked.
import type { FastifyRequest } from 'fastify';
import { nameCaller } from '../http/caller-name.ts';
import { hasScope, type Identity, type Resolved } from '../identity.ts';
import { GoogleError } from './errors.ts';

export const SCOPE_BASE = 'https://www.googleapis.com/auth/';

export interface GoogleAuthRule {
  /** Any one of these scopes admits a bearer token (short names such as `cloud-platform` or full URLs). */
  scopes: string[];
  /** Whether an API key alone is enough. */
  apiKey: boolean;
  /**
   * How a request without any credential (none given, or each one empty) is refused: by default as an OAuth API does
   * (401 UNAUTHENTICATED); `'apiKey'`, as Google refuses it on an API-key API (403 "The request is missing a valid API
   * key.").
   */
  missingCredential?: 'oauth' | 'apiKey';
}

export interface GoogleCaller extends Resolved {
  via: 'api_key' | 'bearer';
}

const MISSING =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';
const INVALID_TOKEN =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

const MISSING_KEY = 'The request is missing a valid API key.';

/** Whether the request carries any credential: a non-empty key, token or Authorization header. */
export function carriesCredential(req: FastifyRequest): boolean {
  const query = req.query as Record<string, unknown>;
  return [query.key, query.access_token, query.oauth_token, req.headers.authorization, req.headers['x-goog-api-key']].some(given);
}

/**
 * For methods Google also serves without any credential (public data, such as Books' volumes): a request carrying
 * none is anonymous (undefined); a credential given is checked as `authenticateGoogle` checks it.
 */
export async function authenticateGoogleOrAnonymous(req: FastifyRequest, identity: Identity, rule: GoogleAuthRule): Promise<GoogleCaller | undefined> {
  return carriesCredential(req) ? authenticateGoogle(req, identity, rule) : undefined;
}

export async function authenticateGoogle(req: FastifyRequest, identity: Identity, rule: GoogleAuthRule): Promise<GoogleCaller> {
  const query = req.query as Record<string, unknown>;
  if (rule.missingCredential === 'apiKey' && !carriesCredential(req)) {
    throw new GoogleError(403, MISSING_KEY, { reason: 'forbidden', rpcStatus: 'PERMISSION_DENIED' });
  }
  const bearer = bearerOf(req) ?? stringParam(query.access_token) ?? stringParam(query.oauth_token);
  const key = stringParam(query.key) ?? headerValue(req.headers['x-goog-api-key']);
  if (bearer !== undefined) {
    const found = await identity.resolve('bearer', bearer);
    if (!found) {
      throw new GoogleError(401, INVALID_TOKEN, { reason: 'authError', location: 'Authorization', locationType: 'header' });
    }
    if (!hasScope(found.credential, ...rule.scopes)) {
      throw new GoogleError(403, 'Request had insufficient authentication scopes.', {
        reason: 'insufficientPermissions',
        rpcStatus: 'PERMISSION_DENIED',
      });
    }
    nameCaller(req.raw, found.principal.id);
    return { ...found, via: 'bearer' };
  }
  if (key !== undefined) {
    const found = await identity.resolve('api_key', key);
    if (!found) {
      throw new GoogleError(400, 'API key not valid. Please pass a valid API key.', { reason: 'badRequest', rpcStatus: 'INVALID_ARGUMENT' });
    }
    if (!rule.apiKey) {
      throw new GoogleError(401, 'API keys are not supported by this API. Expected OAuth2 access token or other authentication credentials that assert a principal.', {
        reason: 'authError',
        rpcStatus: 'UNAUTHENTICATED',
      });
    }
    nameCaller(req.raw, found.principal.id);
    return { ...found, via: 'api_key' };
  }
  throw new GoogleError(401, MISSING, { reason: 'required', location: 'Authorization', locationType: 'header' });
}

function bearerOf(req: FastifyRequest): string | undefined {
  const header = headerValue(req.headers.authorization);
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

/** A credential's value is given when it is a non-empty string (or a list holding one). */
const given = (v: unknown): boolean => (Array.isArray(v) ? v.some(given) : typeof v === 'string' && v !== '');
const headerValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const stringParam = (v: unknown): string | undefined => (Array.isArray(v) ? stringParam(v[0]) : typeof v === 'string' ? v : undefined);
