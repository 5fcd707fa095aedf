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
