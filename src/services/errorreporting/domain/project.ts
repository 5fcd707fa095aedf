// Project ids as Google Cloud forms them, the optional location of the regional methods, and the resource names built
// on them.
import { invalidArgument } from '../../../core/google/index.ts';

/** 6 to 30 characters, a lowercase letter first, lowercase letters, digits and hyphens, no trailing hyphen. */
export const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
/** A project number: digits, no leading zero. */
export const PROJECT_NUMBER = /^[1-9][0-9]{0,18}$/;
/** A location id such as `global` or `us-central1`. */
export const LOCATION = /^[a-z][a-z0-9-]{0,62}$/;

/** Every reported event is kept in this location (reports carry none). */
export const HOME_LOCATION = 'global';
/** The wildcard the list methods accept for "every location". */
export const ANY_LOCATION = '-';

/** A project, and for the location-scoped methods the location named in the path. */
export interface Scope {
  projectId: string;
  location?: string;
}

export const isProjectId = (text: string): boolean => PROJECT_ID.test(text) || PROJECT_NUMBER.test(text);

/** Checks the `{projectId}` of a path; a 400 naming the resource otherwise. */
export function checkProjectId(projectId: string): string {
  if (!isProjectId(projectId)) {
    throw invalidArgument(
      `Invalid project name: "projects/${projectId}". A project id has 6 to 30 lowercase letters, digits or hyphens, starts with a letter and does not end with a hyphen; a project number has only digits.`,
      'projectName',
    );
  }
  return projectId;
}

/** Checks a location id; the wildcard `-` only where a method lists across locations. */
export function checkLocation(location: string, wildcard: boolean): string {
  if (LOCATION.test(location) || (wildcard && location === ANY_LOCATION)) return location;
  throw invalidArgument(`Invalid location: "${location}".`, 'projectName');
}

/** Reads `projects/<id>` or `projects/<id>/locations/<location>` (the forms a client sends when it percent-encodes slashes). */
export function scopeFromName(name: string, wildcard: boolean): Scope {
  const m = /^projects\/([^/]+)(?:\/locations\/([^/]+))?$/.exec(name);
  if (!m) throw invalidArgument(`Invalid project name: "${name}". Expected "projects/<project id or number>".`, 'projectName');
  return m[2] === undefined ? { projectId: checkProjectId(m[1]) } : { projectId: checkProjectId(m[1]), location: checkLocation(m[2], wildcard) };
}

/** Reads `projects/<id>/groups/<groupId>` or `projects/<id>/locations/<location>/groups/<groupId>`. */
export function groupFromName(name: string): Scope & { groupId: string } {
  const m = /^projects\/([^/]+)(?:\/locations\/([^/]+))?\/groups\/([^/]+)$/.exec(name);
  if (!m) throw invalidArgument(`Invalid group name: "${name}". Expected "projects/<project>/groups/<group id>".`, 'groupName');
  const scope = scopeFromName(m[2] === undefined ? `projects/${m[1]}` : `projects/${m[1]}/locations/${m[2]}`, false);
  return { ...scope, groupId: m[3] };
}

/** Whether a scope can hold events: the project itself, its home location, or the wildcard. */
export const holdsEvents = (scope: Scope): boolean =>
  scope.location === undefined || scope.location === HOME_LOCATION || scope.location === ANY_LOCATION;

/** A group's name as seen from a scope: location-scoped requests name groups in the home location. */
export const groupName = (scope: Scope, groupId: string) =>
  scope.location === undefined ? `projects/${scope.projectId}/groups/${groupId}` : `projects/${scope.projectId}/locations/${HOME_LOCATION}/groups/${groupId}`;

/** The names a group of the home location answers to: the project's form and, `global` being the default, the location's. */
export const groupNames = (scope: Scope, groupId: string): string[] => [
  groupName(scope, groupId),
  groupName(scope.location === undefined ? { ...scope, location: HOME_LOCATION } : { projectId: scope.projectId }, groupId),
];
