// The Drive error answers this service gives (reasons and messages as Drive v2 words them).
import { GoogleError } from '../../core/google/index.ts';

export const fileNotFound = (id: string, location = 'fileId') =>
  new GoogleError(404, `File not found: ${id}`, { reason: 'notFound', location, locationType: 'parameter' });

export const notFoundOf = (what: string, id: string, location: string) =>
  new GoogleError(404, `${what} not found: ${id}`, { reason: 'notFound', location, locationType: 'parameter' });

export const insufficientPermissions = (message = 'The user does not have sufficient permissions for this file.') =>
  new GoogleError(403, message, { reason: 'insufficientFilePermissions' });

export const invalidValue = (location: string, message = `Invalid Value: ${location}`, reason = 'invalid') =>
  new GoogleError(400, message, { reason, location, locationType: 'parameter' });

export const requiredValue = (location: string, message = `Required: ${location}`) =>
  new GoogleError(400, message, { reason: 'required', location, locationType: 'parameter' });

export const badRequest = (message: string, reason = 'badRequest') => new GoogleError(400, message, { reason });

export const forbidden = (message: string, reason = 'forbidden') => new GoogleError(403, message, { reason });

export const preconditionFailed = () =>
  new GoogleError(412, 'Precondition Failed', { reason: 'conditionNotMet', location: 'If-Match', locationType: 'header' });

export const conflict = (message: string, reason = 'conflict') => new GoogleError(409, message, { reason });

/** What Drive refuses for files in the application data folder: sharing, moving between spaces, trashing. */
export const notSupportedForAppData = (message = 'Method not supported for files within the Application Data folder.') =>
  new GoogleError(403, message, { reason: 'notSupportedForAppDataFolderFiles' });

export const appDataNotTrashable = () => notSupportedForAppData('Files within the Application Data folder cannot be trashed.');

/** A list of spaces (files.list, changes.list, generateIds) the credential's scopes do not reach. */
export const spacesNotGranted = (location = 'spaces') =>
  new GoogleError(403, 'The granted scopes do not give access to all of the requested spaces.', { reason: 'insufficientScopes', location, locationType: 'parameter' });

/** A field Drive sets only on insert (`shortcutDetails.targetId`) given another value on update, patch or copy. */
export const fieldNotWritable = (location: string) =>
  new GoogleError(403, 'The resource body includes fields which are not directly writable.', { reason: 'fieldNotWritable', location, locationType: 'parameter' });

/** Drive's guide: "A shortcut can only have one parent." */
export const shortcutParentLimit = () => new GoogleError(403, 'A shortcut can only have one parent.', { reason: 'cannotAddParent', location: 'parents', locationType: 'parameter' });

/** Drive's guide: "The ACL for a shortcut inherits the ACL of the parent. The shortcut's ACL cannot be changed directly." */
export const shortcutPermissionsFixed = () =>
  new GoogleError(403, "The shortcut's permissions cannot be changed directly: a shortcut has the access of its parent.", { reason: 'forbidden' });
