// The Calendar API's own error answers (classic Google body; calendar-specific reasons use the `calendar` domain).
import { GoogleError } from '../../../core/google/index.ts';

export const badRequest = (message: string, location?: string, reason = 'invalid') =>
  new GoogleError(400, message, { reason, location, locationType: location ? 'parameter' : undefined });
export const requiredField = (message: string, location?: string) => badRequest(message, location, 'required');
export const calendarError = (status: number, reason: string, message: string, location?: string) =>
  new GoogleError(status, message, { reason, domain: 'calendar', location, locationType: location ? 'parameter' : undefined });
export const notFound = () => new GoogleError(404, 'Not Found', { reason: 'notFound' });
export const deleted = () => new GoogleError(410, 'Resource has been deleted', { reason: 'deleted' });
export const duplicate = () => new GoogleError(409, 'The requested identifier already exists.', { reason: 'duplicate', rpcStatus: 'ALREADY_EXISTS' });
export const forbidden = (message: string, reason = 'forbidden') => new GoogleError(403, message, { reason });
export const preconditionFailed = () =>
  new GoogleError(412, 'Precondition Failed', { reason: 'conditionNotMet', location: 'If-Match', locationType: 'header' });
export const fullSyncRequired = () =>
  calendarError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.', 'syncToken');
