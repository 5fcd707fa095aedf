// Documented requests of volumes.list and volumes.get.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { FILTERS } from '../../catalog-store.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { PAGE, PROJECTION, SHOW_PREORDERS, choice, flag } from './common.ts';

// The values volumes.list accepts, read by the handler too.
export const ORDER_BY = ['relevance', 'newest'] as const;
export const PRINT_TYPES = ['all', 'books', 'magazines'] as const;
export const DOWNLOADS = ['epub'] as const;
export const LIBRARY_RESTRICTS = ['my-library', 'no-restrict'] as const;
export const MATURITY_RATINGS = ['mature', 'not-mature'] as const;

export const VOLUME_SCHEMAS = {
  list: documented({
    querystring: googleQuery({
      q: Type.String({
        minLength: 1,
        description: 'Full-text search query string: words, "phrases", intitle:, inauthor:, inpublisher:, subject:, isbn:, lccn:, oclc:.',
      }),
      ...PAGE,
      ...PROJECTION,
      ...SHOW_PREORDERS,
      orderBy: choice(ORDER_BY, 'Sort search results (default relevance).'),
      printType: choice(PRINT_TYPES, 'Restrict to books or magazines (default all).'),
      filter: choice(FILTERS, 'Filter search results.'),
      download: choice(DOWNLOADS, 'Restrict to volumes by download availability.'),
      langRestrict: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}$', description: 'Restrict results to books with this ISO 639-1 language code.' })),
      libraryRestrict: choice(LIBRARY_RESTRICTS, "Restrict search to this user's library (my-library needs a token that names a user)."),
      maxAllowedMaturityRating: choice(MATURITY_RATINGS, 'The maximum allowed maturity rating of returned volumes (accepted; the catalog holds no mature titles).'),
    }, { unknownParameters: 'ignored' }),
  }),
  get: documented({
    params: Type.Object({ volumeId: Type.String({ description: 'ID of volume to retrieve.' }) }),
    querystring: googleQuery({
      ...PROJECTION,
      includeNonComicsSeries: flag('Set to true to include non-comics series (accepted and ignored).'),
      user_library_consistent_read: flag('Accepted and ignored.'),
    }, { unknownParameters: 'ignored' }),
  }),
};
