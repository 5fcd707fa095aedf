// volumes.list (ranked search of the catalog) and volumes.get.
import type { FastifyInstance } from 'fastify';
import { GoogleError, invalidArgument } from '../../../core/google/index.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { FILTERS, type SearchOptions } from '../catalog-store.ts';
import { parseVolumeQuery } from '../domain/query.ts';
import { volumeNotFound, type Library } from '../library.ts';
import { publicCaller, readerOf } from './auth.ts';
import { booleanParam, enumParam, pageOf, param, projectionOf, type Query } from './params.ts';
import { DOWNLOADS, LIBRARY_RESTRICTS, MATURITY_RATINGS, ORDER_BY, PRINT_TYPES, VOLUME_SCHEMAS } from './schemas/volumes.ts';

// Paths of Books methods outside C3 (volumes.mybooks.list, volumes.recommended.list, volumes.useruploaded.list) that
// the router would take for volumes.get: they answer as every other path the service does not serve.
const UNSERVED_VOLUME_PATHS: ReadonlySet<string> = new Set(['mybooks', 'recommended', 'useruploaded']);

const missingQuery = () => new GoogleError(400, 'Missing query.', { reason: 'queryRequired', location: 'q', locationType: 'parameter' });

/** Search options from volumes.list's parameters, every one checked before the search runs. */
export function searchOptionsOf(query: Query, q: string): Omit<SearchOptions, 'libraryOf'> {
  const langRestrict = param(query, 'langRestrict');
  if (langRestrict !== undefined && langRestrict !== '' && !/^[a-z]{2,3}$/i.test(langRestrict)) {
    throw invalidArgument(`Invalid value '${langRestrict}' for langRestrict: expected an ISO 639-1 language code.`, 'langRestrict');
  }
  // Accepted for compatibility; the catalog holds no mature titles and no preorders.
  enumParam(query, 'maxAllowedMaturityRating', MATURITY_RATINGS);
  booleanParam(query, 'showPreorders');
  return {
    query: parseVolumeQuery(q),
    ...pageOf(query),
    orderBy: enumParam(query, 'orderBy', ORDER_BY, 'relevance'),
    printType: enumParam(query, 'printType', PRINT_TYPES, 'all'),
    filter: enumParam(query, 'filter', FILTERS),
    langRestrict: langRestrict ? langRestrict.toLowerCase() : undefined,
    download: enumParam(query, 'download', DOWNLOADS),
  };
}

export function volumeRoutes(app: FastifyInstance, ctx: ServiceContext, library: Library): void {
  app.get('/books/v1/volumes', VOLUME_SCHEMAS.list, async (req) => {
    const caller = await publicCaller(req, ctx);
    const query = req.query as Query;
    const q = param(query, 'q');
    if (q === undefined || q.trim() === '') throw missingQuery();
    const options: SearchOptions = searchOptionsOf(query, q);
    const projection = projectionOf(query);
    const reader = readerOf(caller);
    if (enumParam(query, 'libraryRestrict', LIBRARY_RESTRICTS) === 'my-library') {
      if (!reader) throw new GoogleError(401, 'libraryRestrict=my-library needs an OAuth token that names a user.', { reason: 'authError', location: 'Authorization', locationType: 'header' });
      options.libraryOf = { userId: reader };
    }
    const found = await library.catalog.search(options);
    const items = await library.render(found.items, projection, reader);
    return { kind: 'books#volumes', totalItems: found.totalItems, ...(items.length ? { items } : {}) };
  });

  app.get('/books/v1/volumes/:volumeId', VOLUME_SCHEMAS.get, async (req, reply) => {
    if (UNSERVED_VOLUME_PATHS.has((req.params as { volumeId: string }).volumeId)) return reply.callNotFound();
    const caller = await publicCaller(req, ctx);
    const query = req.query as Query;
    const projection = projectionOf(query);
    booleanParam(query, 'includeNonComicsSeries');
    booleanParam(query, 'user_library_consistent_read');
    const { volumeId } = req.params as { volumeId: string };
    const volume = await library.catalog.get(volumeId);
    if (!volume) throw volumeNotFound(volumeId);
    return (await library.render([volume], projection, readerOf(caller)))[0];
  });
}
