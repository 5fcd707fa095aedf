// The documented parameters of settings.list (settings.watch takes the Channel body of ./channel.ts).
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { maxResults, pageToken, syncToken } from './common.ts';

export const SettingsListQuery = googleQuery({ maxResults: maxResults(100, 250), pageToken, syncToken }, { unknownParameters: 'ignored' });
