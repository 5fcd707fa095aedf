// Path and query building blocks of the documented route schemas (documentation only, see core/http/documented.ts):
// the handlers check the values themselves and answer INVALID_ARGUMENT as the real API does.
import { Type } from '@sinclair/typebox';
import { GROUP_ID } from '../../domain/fingerprint.ts';
import { LOCATION, PROJECT_ID, PROJECT_NUMBER } from '../../domain/project.ts';

const projectId = Type.String({
  pattern: `${PROJECT_ID.source}|${PROJECT_NUMBER.source}`,
  description: 'The Google Cloud project id (6 to 30 lowercase letters, digits or hyphens, a letter first) or project number.',
});
const location = (wildcard: boolean) =>
  Type.String({
    pattern: wildcard ? `${LOCATION.source}|^-$` : LOCATION.source,
    description: wildcard ? 'A location id such as global or us-central1; "-" for every location.' : 'A location id such as global or us-central1.',
  });
export const groupId = (description: string) => Type.String({ pattern: GROUP_ID.source, description });

export const ProjectParams = Type.Object({ projectId });
export const LocationParams = (wildcard: boolean) => Type.Object({ projectId, location: location(wildcard) });
export const ProjectNameParams = (withLocation: boolean) =>
  Type.Object({
    projectName: Type.String({
      description: `The resource name with its slashes percent-encoded: projects/{projectId}${withLocation ? ' or projects/{projectId}/locations/{location}' : ''}.`,
    }),
  });
