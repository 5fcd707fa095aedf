// TypeBox schemas of the admin routes. The public API's bodies are read by domain/proto-json.ts instead, so that
// their errors carry Google's messages.
import { Type } from '@sinclair/typebox';

export const LogBucketBody = Type.Object(
  {
    cmekEnabled: Type.Optional(Type.Boolean()),
    bucketProject: Type.Optional(Type.String({ minLength: 1, maxLength: 30 })),
    routed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const LogQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) });
