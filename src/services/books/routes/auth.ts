// Who may call what. Public data (volumes, a user's public shelves) is served without any credential, as Books serves
// it; a credential given (an API key or a token with the books scope) is checked. The mylibrary methods act on the
// caller's own library, so they need a token that names a user.
import type { FastifyRequest } from 'fastify';
import { authenticateGoogle, authenticateGoogleOrAnonymous, type GoogleCaller } from '../../../core/google/index.ts';
import type { ServiceContext } from '../../../core/service.ts';

export const BOOKS_SCOPE = 'https://www.googleapis.com/auth/books';

const PUBLIC_RULE = { scopes: [BOOKS_SCOPE], apiKey: true };
const LIBRARY_RULE = { scopes: [BOOKS_SCOPE], apiKey: false };

/** The caller of a public method: undefined when the request carries no credential at all. */
export const publicCaller = (req: FastifyRequest, ctx: ServiceContext): Promise<GoogleCaller | undefined> => authenticateGoogleOrAnonymous(req, ctx.identity, PUBLIC_RULE);
export const libraryCaller = (req: FastifyRequest, ctx: ServiceContext): Promise<GoogleCaller> => authenticateGoogle(req, ctx.identity, LIBRARY_RULE);

/** The user a token speaks for; an API key names an application, not a reader. */
export const readerOf = (caller: GoogleCaller | undefined): string | undefined => (caller?.via === 'bearer' ? caller.principal.id : undefined);
