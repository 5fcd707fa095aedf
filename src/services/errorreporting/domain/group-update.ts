// The body of groups.update: an ErrorGroup whose resolution status and tracking issues replace the stored ones.
import { fieldPath, invalidBody, invalidValue, readArray, readObject, readString, required } from './proto-json.ts';

export const RESOLUTION_STATUSES = ['OPEN', 'ACKNOWLEDGED', 'RESOLVED', 'MUTED'] as const;
export type ResolutionStatus = (typeof RESOLUTION_STATUSES)[number];

export interface GroupUpdate {
  resolutionStatus: ResolutionStatus;
  trackingIssues: Array<{ url: string }>;
}

const ROOT = 'group';

/** `names`: what the group in the path may be called in the body, the path's own form first. */
export function readGroupUpdate(body: unknown, names: readonly string[], groupId: string): GroupUpdate {
  const group = readObject(body ?? {}, ROOT, 'ErrorGroup', ['name', 'groupId', 'trackingIssues', 'resolutionStatus'])!;
  const givenName = readString(group, 'name', ROOT);
  if (givenName !== undefined && givenName !== '' && !names.includes(givenName)) {
    throw invalidBody(`ErrorGroup.name "${givenName}" does not match the group in the request path "${names[0]}".`);
  }
  const givenId = readString(group, 'groupId', ROOT);
  if (givenId !== undefined && givenId !== '' && givenId !== groupId) {
    throw invalidBody(`ErrorGroup.group_id "${givenId}" does not match the group in the request path "${groupId}".`);
  }
  const status = readString(group, 'resolutionStatus', ROOT);
  let resolutionStatus: ResolutionStatus = 'OPEN';
  if (status !== undefined && status !== 'RESOLUTION_STATUS_UNSPECIFIED') {
    if (!(RESOLUTION_STATUSES as readonly string[]).includes(status)) {
      throw invalidValue(fieldPath(ROOT, 'resolutionStatus'), 'ResolutionStatus', status);
    }
    resolutionStatus = status as ResolutionStatus;
  }
  const issuesPath = fieldPath(ROOT, 'trackingIssues');
  const trackingIssues = readArray(group, 'trackingIssues', ROOT, 'TrackingIssue').map((item, i) => {
    const issue = readObject(item, `${issuesPath}[${i}]`, 'TrackingIssue', ['url']);
    const url = readString(issue, 'url', issuesPath);
    if (!url) throw required(`ErrorGroup.tracking_issues[${i}].url`);
    return { url };
  });
  return { resolutionStatus, trackingIssues };
}
