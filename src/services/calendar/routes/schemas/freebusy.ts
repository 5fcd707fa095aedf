// The documented FreeBusyRequest of freebusy.query, as freebusy.ts reads it (unknown fields are refused).
import { Type } from '@sinclair/typebox';

const instant = (description: string) => Type.String({ format: 'date-time', maxLength: 64, description: `${description} An RFC 3339 timestamp with a time zone offset.` });

export const FreeBusyRequest = Type.Object(
  {
    timeMin: instant('The start of the interval for the query.'),
    timeMax: instant('The end of the interval for the query: after timeMin, at most 366 days later.'),
    timeZone: Type.Optional(Type.String({ maxLength: 128, default: 'UTC', description: 'Time zone used in the response.' })),
    groupExpansionMax: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Maximal number of calendar identifiers to be provided for a single group.' })),
    calendarExpansionMax: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Maximal number of calendars for which FreeBusy information is to be provided.' })),
    items: Type.Optional(
      Type.Array(Type.Object({ id: Type.String({ minLength: 1, maxLength: 1024, description: 'The identifier of a calendar or a group.' }) }, { additionalProperties: false }), {
        maxItems: 50,
        description: 'List of calendars and/or groups to query.',
      }),
    ),
  },
  { additionalProperties: false },
);
