// Documented requests of apps.list and apps.get.
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { pathParams, text } from './common.ts';

export const APP_SCHEMAS = {
  list: documented({
    querystring: googleQuery({
      appFilterExtensions: text('A comma-separated list of file extensions to limit returned results to.'),
      appFilterMimeTypes: text('A comma-separated list of MIME types to limit returned results to.'),
    }, { unknownParameters: 'ignored' }),
  }),
  get: documented({ params: pathParams({ appId: 'The ID of the app.' }), querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
};
