// Project ids as Google Cloud forms them, and the resource names built on them.
import { invalidArgument } from '../../../core/google/index.ts';

/** 6 to 30 characters, a lowercase letter first, lowercase letters, digits and hyphens, no trailing hyphen. */
const PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
/** A project number: digits, no leading zero. */
const PROJECT_NUMBER = /^[1-9][0-9]{0,18}$/;

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

/** Reads `projects/<id>` (the form a client sends when it percent-encodes the slash of `{+projectName}`). */
export function projectFromName(name: string): string {
  const m = /^projects\/([^/]+)$/.exec(name);
  if (!m) throw invalidArgument(`Invalid project name: "${name}". Expected "projects/<project id or number>".`, 'projectName');
  return checkProjectId(m[1]);
}

/** Reads `projects/<id>/groups/<groupId>`. */
export function groupFromName(name: string): { projectId: string; groupId: string } {
  const m = /^projects\/([^/]+)\/groups\/([^/]+)$/.exec(name);
  if (!m) throw invalidArgument(`Invalid group name: "${name}". Expected "projects/<project>/groups/<group id>".`, 'groupName');
  return { projectId: checkProjectId(m[1]), groupId: m[2] };
}

export const groupName = (projectId: string, groupId: string) => `projects/${projectId}/groups/${groupId}`;
