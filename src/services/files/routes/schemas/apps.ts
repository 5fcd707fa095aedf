// Documented requests of apps.list and apps.get.
import { documented } from '../../../../core/http/documented.ts';
import { driveQuery, pathParams, text } from './common.ts';

export const APP_SCHEMAS = {
  list: documented({
    querystring: driveQuery({
      appFilterExtensions: text('A comma-separated list of file extensions to limit returned results to.'),
      appFilterMimeTypes: text('A comma-separated list of MIME types to limit returned results to.'),
    }),
  }),
  get: documented({ params: pathParams({ appId: 'The ID of the app.' }), querystring: driveQuery() }),
};
