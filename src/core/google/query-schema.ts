// The documented query string of a Google-style method: its own parameters beside the system parameters every method
// takes. Used with documented() (src/core/http/documented.ts): the method checks its parameters itself. Most refuse an
// unknown one as Google does, which additionalProperties: false describes; the APIs that ignore one (Drive, Calendar,
// Books, some Error Reporting methods) say so with `unknownParameters: 'ignored'`.
import { Type, type TProperties } from '@sinclair/typebox';

const SYSTEM_PARAMETER_SCHEMAS: TProperties = {
  alt: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('media'), Type.Literal('proto')], { description: 'Data format of the response.' })),
  fields: Type.Optional(Type.String({ description: 'Selector of the fields to include in the response.' })),
  key: Type.Optional(Type.String({ description: 'API key.' })),
  access_token: Type.Optional(Type.String({ description: 'OAuth access token.' })),
  oauth_token: Type.Optional(Type.String({ description: 'OAuth 2.0 token for the current user.' })),
  prettyPrint: Type.Optional(Type.Boolean({ description: 'Returns the response with indentations and line breaks.' })),
  quotaUser: Type.Optional(Type.String({ description: 'Stands in for a user for quota purposes.' })),
  '$.xgafv': Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('2')], { description: 'V1 error format.' })),
  upload_protocol: Type.Optional(Type.String({ description: 'Upload protocol for media (e.g. "raw", "multipart").' })),
  uploadType: Type.Optional(Type.String({ description: 'Legacy upload protocol for media (e.g. "media", "multipart", "resumable").' })),
  callback: Type.Optional(Type.String({ description: 'JSONP callback.' })),
  userIp: Type.Optional(Type.String({ description: 'Legacy stand-in for quotaUser.' })),
};

export interface GoogleQueryOptions {
  /** What the method does with a parameter it does not know: refuses it (the default) or ignores it. */
  unknownParameters?: 'refused' | 'ignored';
}

/** The query string of a method taking `own` parameters (each `Type.Optional` unless required) and the system ones. */
export function googleQuery(own: TProperties = {}, options: GoogleQueryOptions = {}) {
  return Type.Object({ ...SYSTEM_PARAMETER_SCHEMAS, ...own }, { additionalProperties: options.unknownParameters === 'ignored' });
}
