// The documented ErrorGroup of groups.update, as domain/group-update.ts reads it: the resolution status and tracking
// issues replace the stored ones; name and groupId, when given, must be those of the path.
import { Type } from '@sinclair/typebox';
import { RESOLUTION_STATUSES } from '../../domain/group-update.ts';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { groupId, LocationParams, ProjectParams } from './common.ts';

export const ErrorGroup = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'The group resource name, projects/{projectID}/groups/{group_id} or projects/{projectID}/locations/global/groups/{group_id}; must name the group of the path.' })),
    groupId: Type.Optional(Type.String({ description: 'An opaque identifier of the group; must match the path.' })),
    resolutionStatus: Type.Optional(
      stringEnum(['RESOLUTION_STATUS_UNSPECIFIED', ...RESOLUTION_STATUSES], { description: "Error group's resolution status; an unspecified one is interpreted as OPEN." }),
    ),
    trackingIssues: Type.Optional(
      Type.Array(
        Type.Object({ url: Type.String({ minLength: 1, description: 'A URL pointing to a related entry in an issue tracking system.' }) }, { additionalProperties: false }),
        { description: 'Associated tracking issues.' },
      ),
    ),
  },
  { additionalProperties: false, description: 'Description of a group of similar error events.' },
);

const groupIdParam = groupId('The group id (the last part of the group resource name).');

/** The path parameters of each form of a group's path: by project, by project and location, by resource name. */
export const GROUP_PATH_PARAMS = [
  Type.Object({ ...ProjectParams.properties, groupId: groupIdParam }),
  Type.Object({ ...LocationParams(false).properties, groupId: groupIdParam }),
  Type.Object({ groupName: Type.String({ description: 'The group resource name with its slashes percent-encoded: projects/{projectId}[/locations/{location}]/groups/{groupId}.' }) }),
];
