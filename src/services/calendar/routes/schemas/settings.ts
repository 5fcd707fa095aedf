// The documented parameters of settings.list (settings.watch takes the Channel body of ./channel.ts).
import { calendarQuery, maxResults, pageToken, syncToken } from './common.ts';

export const SettingsListQuery = calendarQuery({ maxResults: maxResults(100, 250), pageToken, syncToken });
