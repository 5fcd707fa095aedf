// Pieces the documented request schemas of the file storage share: path parameters and common query parameters. A
// method's query string is googleQuery(own, { unknownParameters: 'ignored' }): Drive ignores a parameter it does not know.
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { stringEnum } from '../../../../core/http/schema-types.ts';

/** Path parameters, each a string. */
export const pathParams = (names: Record<string, string>) =>
  Type.Object(Object.fromEntries(Object.entries(names).map(([name, description]) => [name, Type.String({ description })])));

const optional = <T extends TSchema>(schema: T) => Type.Optional(schema);

/** An optional boolean (in a query string: `true` or `false`, any other value is refused). */
export const flag = (description: string) => optional(Type.Boolean({ description }));

/** An integer query parameter within the bounds the handler enforces. */
export const integer = (minimum: number, maximum: number, description: string) => optional(Type.Integer({ minimum, maximum, description }));

export const text = (description: string, maxLength?: number) => optional(Type.String({ description, ...(maxLength ? { maxLength } : {}) }));

/** An optional parameter or field that is one of the listed values. */
export const oneOf = (values: readonly string[], description: string) => optional(stringEnum(values, { description }));

export const ALL_DRIVES: TProperties = {
  supportsAllDrives: flag('Whether the requesting application supports both My Drives and shared drives.'),
  supportsTeamDrives: flag('Deprecated: use supportsAllDrives.'),
};

export const PAGE_TOKEN: TProperties = { pageToken: text('Page token from the previous page of results.') };

export const FILE_ID = { fileId: 'The ID of the file (or `root`, the My Drive root folder).' };
export const FileParams = pathParams(FILE_ID);
