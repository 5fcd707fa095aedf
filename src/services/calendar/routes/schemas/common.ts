// Building blocks of the calendar's documented route schemas (documentation only, see core/http/documented.ts): the
// handlers check every value themselves and answer in Calendar's error format.
import { Type } from '@sinclair/typebox';
import { googleQuery } from '../../../../core/google/query-schema.ts';

/** A field a client may send back as it read it; the handler ignores it. */
export const readOnly = (description: string) => Type.Optional(Type.Unknown({ description: `${description} Read-only: ignored in a request.` }));

export const CalendarIdParams = Type.Object({
  calendarId: Type.String({ description: 'Calendar identifier, or "primary" for the calendar of the signed-in user.' }),
});

export const EventIdParams = Type.Object({
  calendarId: CalendarIdParams.properties.calendarId,
  eventId: Type.String({ description: 'Event identifier (an instance id names one occurrence of a recurring event).' }),
});

export const AclRuleParams = Type.Object({
  calendarId: CalendarIdParams.properties.calendarId,
  ruleId: Type.String({ description: 'ACL rule identifier, "<scope type>:<scope value>" (e.g. user:ann@example.com).' }),
});

export const SettingParams = Type.Object({ setting: Type.String({ description: 'The id of the user setting (e.g. timezone).' }) });

/** Query booleans: the handlers take "true" or "false". */
export const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

/** `maxResults` of a list: at least 1; larger values than `cap` are cut to it. */
export const maxResults = (fallback: number, cap: number) =>
  Type.Optional(Type.Integer({ minimum: 1, default: fallback, description: `Maximum number of entries returned on one result page (at most ${cap} are returned).` }));

export const pageToken = Type.Optional(Type.String({ maxLength: 4096, description: 'Token specifying which result page to return.' }));
export const syncToken = Type.Optional(Type.String({ maxLength: 4096, description: 'Token obtained from the nextSyncToken field of a previous list: only entries changed since then are returned.' }));

/**
 * The query string of a method with no parameters of its own. Calendar ignores a parameter it does not know (unlike
 * the APIs that refuse one), so every method's query string is googleQuery(own, { unknownParameters: 'ignored' }).
 */
export const SystemQuery = googleQuery({}, { unknownParameters: 'ignored' });
