// The documented ReportedErrorEvent of events:report, as domain/report.ts reads it: unknown fields are refused at every
// level (proto3 JSON binding), null counts as absent. Descriptions follow the Cloud Error Reporting v1beta1 reference.
import { Type } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;
const text = (description: string) => Type.Optional(Type.String({ description }));
/** int32 fields take a JSON number or its decimal string, as proto3 JSON does. */
const int32 = (description: string, minimum = -2147483648) =>
  Type.Optional(Type.Integer({ minimum, maximum: 2147483647, description: `${description} (a number or its decimal string).` }));

const ServiceContext = Type.Object(
  {
    service: Type.String({ minLength: 1, description: 'An identifier of the service, such as the name of the executable, job, or App Engine service name.' }),
    version: text('The source code version that the developer provided, e.g. a version label or a Git SHA-1 hash.'),
    resourceType: text('Type of the MonitoredResource. Output only: a report that sets it to anything but "" is refused.'),
  },
  { ...closed, description: 'Required. The service context in which this error has occurred.' },
);

const HttpRequestContext = Type.Object(
  {
    method: text('The type of HTTP request, such as GET, POST, etc.'),
    url: text('The URL of the request.'),
    userAgent: text('The user agent information that is provided with the request.'),
    referrer: text('The referrer information that is provided with the request.'),
    responseStatusCode: int32('The HTTP response status code for the request'),
    remoteIp: text('The IP address from which the request originated.'),
  },
  { ...closed, description: 'The HTTP request which was processed when the error was triggered.' },
);

const SourceLocation = Type.Object(
  {
    functionName: text('Human-readable name of a function or method, e.g. my.package.MyClass.method. Required unless message holds a recognised stack trace.'),
    filePath: text('The source code filename, which can include a truncated relative path, or a full path from a production machine.'),
    lineNumber: int32('1-based line number; 0 indicates that the line number is unknown', 0),
  },
  { ...closed, description: 'The location in the source code where the decision was made to report the error.' },
);

const SourceReference = Type.Object(
  {
    repository: text('A URI string identifying the repository.'),
    revisionId: text('The canonical and persistent identifier of the deployed revision.'),
  },
  closed,
);

export const ReportedErrorEvent = Type.Object(
  {
    eventTime: Type.Optional(
      Type.String({ format: 'date-time', description: 'Time when the event occurred (RFC 3339): at most 30 days ago and 24 hours ahead. The time of receipt when absent.' }),
    ),
    serviceContext: ServiceContext,
    message: Type.String({
      minLength: 1,
      description: 'The error message. Without context.reportLocation it must hold an exception header and a stack trace in a supported language.',
    }),
    context: Type.Optional(
      Type.Object(
        {
          httpRequest: Type.Optional(HttpRequestContext),
          user: text('The user who caused or was affected by the crash: a user ID, an email address, or an arbitrary token.'),
          reportLocation: Type.Optional(SourceLocation),
          sourceReferences: Type.Optional(Type.Array(SourceReference, { description: 'Source code that was used to build the executable which has caused the error.' })),
        },
        { ...closed, description: 'A description of the context in which the error occurred.' },
      ),
    ),
  },
  { ...closed, description: 'An error event which is reported to the Error Reporting system. Strings may not contain NUL.' },
);
