// The documented query strings of groupStats.list and events.list, as domain/query.ts reads them. Both refuse an
// unknown parameter, so the objects are closed; every parameter but groupId (groupStats) may appear once only.
import { Type } from '@sinclair/typebox';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { ALIGNMENTS, DEFAULT_PERIOD, ORDERS, PERIODS } from '../../domain/query.ts';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { groupId } from './common.ts';

const COMMON = {
  'serviceFilter.service': Type.Optional(Type.String({ description: 'Only error groups or events of this service (ServiceContext.service).' })),
  'serviceFilter.version': Type.Optional(Type.String({ description: 'Only error groups or events of this version (ServiceContext.version).' })),
  'serviceFilter.resourceType': Type.Optional(Type.String({ description: 'Only error groups or events of this resource type (ServiceContext.resource_type).' })),
  'timeRange.period': Type.Optional(
    stringEnum(['PERIOD_UNSPECIFIED', ...Object.keys(PERIODS)], { default: DEFAULT_PERIOD, description: 'Restricts the query to the period ending now; unspecified is the whole retention window (30 days).' }),
  ),
  pageSize: Type.Optional(Type.Integer({ minimum: 0, default: 20, description: 'The maximum number of results to return per response (0: the default; at most 1000 are returned).' })),
  pageToken: Type.Optional(Type.String({ description: 'A next_page_token provided by a previous response.' })),
};

export const GroupStatsQuery = googleQuery({
  ...COMMON,
  groupId: Type.Optional(Type.Array(groupId('An error group id.'), { maxItems: 1000, description: 'List all ErrorGroupStats with these IDs (repeat the parameter); all groups when absent.' })),
  timedCountDuration: Type.Optional(
    Type.String({ pattern: '^\\d+(\\.\\d{1,9})?s$', description: 'The preferred duration for a single returned TimedCount, e.g. "3600s" (at most ten years); no timed counts when absent.' }),
  ),
  alignment: Type.Optional(
    stringEnum(['ERROR_COUNT_ALIGNMENT_UNSPECIFIED', ...ALIGNMENTS], { default: 'ALIGNMENT_EQUAL_AT_END', description: 'The alignment of the timed counts to be returned.' }),
  ),
  alignmentTime: Type.Optional(Type.String({ format: 'date-time', description: 'Time where the timed counts shall be aligned if rounded alignment is chosen (RFC 3339).' })),
  order: Type.Optional(stringEnum(['GROUP_ORDER_UNSPECIFIED', ...ORDERS], { default: 'COUNT_DESC', description: 'The sort order in which the results are returned.' })),
});

export const EventsQuery = googleQuery({
  ...COMMON,
  groupId: groupId('The group for which events shall be returned.'),
});
