// Identifier formats of the file storage: file ids like Drive's (33 URL-safe characters), deterministic root folder
// and application data folder ids per user, revision and comment ids.
import { createHash } from 'node:crypto';
import { randomToken, sortableId } from '../../../core/ids.ts';

export const newFileId = (): string => '1' + randomToken(24);
export const newRevisionId = (): string => '0B' + randomToken(18);
export const newCommentId = (): string => sortableId();
export const newUploadId = (): string => 'ADPy' + randomToken(30);

/** Ids a caller may name (insert with a generated id, path parameters): URL-safe and of sane length. */
export const isIdFormat = (id: string): boolean => /^[A-Za-z0-9_-]{1,128}$/.test(id);

export function rootFolderId(email: string): string {
  return '0A' + createHash('sha256').update(`root:${email.toLowerCase()}`).digest('base64url').slice(0, 16) + 'Uk9PVA';
}

/** The user's application data folder (one per user: there is one app). */
export function appDataFolderId(email: string): string {
  return '0A' + createHash('sha256').update(`appData:${email.toLowerCase()}`).digest('base64url').slice(0, 16) + 'QVBQ';
}
