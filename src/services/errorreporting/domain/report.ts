// The rules of `events:report`: what a ReportedErrorEvent must hold, how its time is read and bounded, and which group
// it falls in. Pure: the caller supplies "now".
import { GoogleError } from '../../../core/google/index.ts';
import { formatInstant, instantFromMs, instantToMs, parseRfc3339, type Instant } from '../../../core/time.ts';
import { groupIdOf } from './fingerprint.ts';
import { fieldPath, invalidBody, invalidValue, readArray, readInt32, readObject, readString, required } from './proto-json.ts';
import { parseStackTrace, type ParsedTrace } from './stack-trace.ts';

/** Spec A4: the log retention period an event time may not be older than. */
export const RETENTION_MS = 30 * 24 * 3600_000;
/** Spec A4: how far ahead an event time may be. */
export const MAX_AHEAD_MS = 24 * 3600_000;

/** The exact answer of the real API for a message without a recognised trace and without a report location. */
export const NO_LOCATION_MESSAGE = 'ReportedErrorEvent.context must contain a location unless `message` contain an exception or stacktrace.';

export interface ErrorContext {
  httpRequest?: { method?: string; url?: string; userAgent?: string; referrer?: string; responseStatusCode?: number; remoteIp?: string };
  user?: string;
  reportLocation?: { filePath?: string; lineNumber?: number; functionName?: string };
  sourceReferences?: Array<{ repository?: string; revisionId?: string }>;
}

/** An accepted event, normalised, with its group. */
export interface AcceptedEvent {
  eventTimeMs: number;
  /** RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits. */
  eventTime: string;
  service: string;
  version?: string;
  message: string;
  context?: ErrorContext;
  exceptionType: string;
  groupId: string;
}

const ROOT = 'event';
const NAME = 'ReportedErrorEvent';

export function acceptReport(body: unknown, nowMs: number): AcceptedEvent {
  if (body === undefined || body === null) throw required(`${NAME}.service_context`);
  const event = readObject(body, ROOT, 'ReportedErrorEvent', ['eventTime', 'serviceContext', 'message', 'context'])!;

  const serviceContext = readObject(event.serviceContext, fieldPath(ROOT, 'serviceContext'), 'ServiceContext', ['service', 'version', 'resourceType']);
  if (!serviceContext) throw required(`${NAME}.service_context`);
  const scPath = fieldPath(ROOT, 'serviceContext');
  const service = readString(serviceContext, 'service', scPath);
  const version = readString(serviceContext, 'version', scPath);
  const resourceType = readString(serviceContext, 'resourceType', scPath);
  if (!service) throw required(`${NAME}.service_context.service`);
  // proto3: an empty string is the field's default, so "" reads as unset.
  if (resourceType) throw invalidBody(`${NAME}.service_context.resource_type is output only and must not be set.`);

  const message = readString(event, 'message', ROOT);
  if (!message) throw required(`${NAME}.message`);

  const context = readContext(event.context);
  const eventTime = readEventTime(event.eventTime, nowMs);

  const trace = parseStackTrace(message);
  const location = context?.reportLocation;
  if (!trace && !location) throw new GoogleError(400, NO_LOCATION_MESSAGE, { bare: true });
  // A report location needs a function name only when no trace tells where the error was (SourceLocation's rule).
  if (!trace && !location!.functionName) throw required(`${NAME}.context.report_location.function_name`);
  const key = groupKeyOf(trace, location);
  return {
    eventTimeMs: instantToMs(eventTime),
    eventTime: formatInstant(eventTime),
    service,
    version: version || undefined,
    message,
    context: withoutEmptyLocation(context),
    exceptionType: key.exceptionType,
    groupId: groupIdOf(key),
  };
}

/** An all-default report location (sent along with a trace) says nothing and is not kept. */
function withoutEmptyLocation(context: ErrorContext | undefined): ErrorContext | undefined {
  if (!context?.reportLocation || Object.keys(context.reportLocation).length) return context;
  const { reportLocation: _empty, ...rest } = context;
  return Object.keys(rest).length ? rest : undefined;
}

/** A trace groups by its exception type and frames; a bare message by where it was reported. Not by service. */
function groupKeyOf(trace: ParsedTrace | undefined, location: ErrorContext['reportLocation']) {
  if (trace) return { exceptionType: trace.exceptionType, frames: trace.frames };
  return { exceptionType: '', frames: [`${location!.functionName!}@${location!.filePath ?? ''}`] };
}

function readEventTime(value: unknown, nowMs: number): Instant {
  const path = fieldPath(ROOT, 'eventTime');
  if (value === undefined || value === null) return instantFromMs(nowMs);
  if (typeof value !== 'string') throw invalidValue(path, 'type.googleapis.com/google.protobuf.Timestamp', value);
  const instant = parseRfc3339(value);
  if (!instant) throw invalidValue(path, 'type.googleapis.com/google.protobuf.Timestamp', value);
  const ms = instantToMs(instant);
  if (ms < nowMs - RETENTION_MS) throw invalidBody(`${NAME}.event_time is older than the log retention period of 30 days: ${value}`);
  if (ms > nowMs + MAX_AHEAD_MS) throw invalidBody(`${NAME}.event_time is more than 24 hours in the future: ${value}`);
  return instant;
}

function readContext(value: unknown): ErrorContext | undefined {
  const path = fieldPath(ROOT, 'context');
  const raw = readObject(value, path, 'ErrorContext', ['httpRequest', 'user', 'reportLocation', 'sourceReferences']);
  if (!raw) return undefined;
  const out: ErrorContext = {};

  const httpPath = fieldPath(path, 'httpRequest');
  const http = readObject(raw.httpRequest, httpPath, 'HttpRequestContext', ['method', 'url', 'userAgent', 'referrer', 'responseStatusCode', 'remoteIp']);
  if (http) {
    const httpRequest = dropDefaults({
      method: readString(http, 'method', httpPath),
      url: readString(http, 'url', httpPath),
      userAgent: readString(http, 'userAgent', httpPath),
      referrer: readString(http, 'referrer', httpPath),
      responseStatusCode: readInt32(http, 'responseStatusCode', httpPath),
      remoteIp: readString(http, 'remoteIp', httpPath),
    });
    if (Object.keys(httpRequest).length) out.httpRequest = httpRequest;
  }
  const user = readString(raw, 'user', path);
  if (user) out.user = user;

  const locPath = fieldPath(path, 'reportLocation');
  const loc = readObject(raw.reportLocation, locPath, 'SourceLocation', ['filePath', 'lineNumber', 'functionName']);
  if (loc) {
    const functionName = readString(loc, 'functionName', locPath);
    const filePath = readString(loc, 'filePath', locPath);
    const lineNumber = readInt32(loc, 'lineNumber', locPath);
    if (lineNumber !== undefined && lineNumber < 0) throw invalidValue(fieldPath(locPath, 'lineNumber'), 'TYPE_INT32', lineNumber);
    // Kept even when every field is empty: a present location without a function name is refused when there is no trace.
    out.reportLocation = dropDefaults({ filePath, lineNumber, functionName });
  }

  const refsPath = fieldPath(path, 'sourceReferences');
  const refs = readArray(raw, 'sourceReferences', path, 'SourceReference').map((item, i) => {
    const ref = readObject(item, `${refsPath}[${i}]`, 'SourceReference', ['repository', 'revisionId']);
    if (!ref) throw invalidValue(`${refsPath}[${i}]`, 'SourceReference', item);
    return dropDefaults({ repository: readString(ref, 'repository', refsPath), revisionId: readString(ref, 'revisionId', refsPath) });
  });
  if (refs.length) out.sourceReferences = refs;
  return Object.keys(out).length ? out : undefined;
}

/**
 * Leaves out the fields that hold their proto3 default ("" or 0), as the API reads them: clients such as the Node.js
 * error-reporting library send every field, empty ones included (`responseStatusCode: 0`, `functionName: ''`).
 */
function dropDefaults<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined || o[k] === '' || o[k] === 0) delete o[k];
  return o;
}
