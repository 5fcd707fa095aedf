// Documented requests of properties.*: a Property (domain/properties.ts checks it) and the visibility parameter.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { MAX_PROPERTY_BYTES } from '../../domain/properties.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { FILE_ID, FileParams, oneOf, pathParams } from './common.ts';

const KEY_PATTERN = '^[A-Za-z0-9.!@$%^&*()\\-_/]+$';
const VISIBILITY = ['PRIVATE', 'PUBLIC'] as const;
const visibility = (description: string) => oneOf(VISIBILITY, description);

/** A property in a files.insert body or a properties.insert body. */
export const PropertyBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: MAX_PROPERTY_BYTES, pattern: KEY_PATTERN, description: `The key of this property; key and value together at most ${MAX_PROPERTY_BYTES} bytes of UTF-8.` }),
    value: Type.String({ maxLength: MAX_PROPERTY_BYTES, description: 'The value of this property.' }),
    visibility: visibility('The visibility of this property: PRIVATE (the default) or PUBLIC.'),
  },
  { description: 'A key-value pair attached to a file.' },
);

/** A patch leaves out what stays as stored; the key, if sent, must be the one in the path. */
const PropertyPatch = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'The key of this property (cannot be changed).' })),
    value: Type.Optional(Type.String({ maxLength: MAX_PROPERTY_BYTES, description: 'The new value of this property.' })),
    visibility: visibility('The new visibility of this property.'),
  },
  { description: 'The fields of a Property to change.' },
);

const PropertyParams = pathParams({ ...FILE_ID, propertyKey: 'The key of the property.' });
const VisibilityQuery = googleQuery({ visibility: visibility('The visibility of the property (default PRIVATE).') }, { unknownParameters: 'ignored' });

export const PROPERTY_SCHEMAS = {
  list: documented({ params: FileParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  get: documented({ params: PropertyParams, querystring: VisibilityQuery }),
  insert: documented({ params: FileParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: PropertyBody }),
  update: documented({ params: PropertyParams, querystring: VisibilityQuery, body: PropertyPatch }),
  delete: documented({ params: PropertyParams, querystring: VisibilityQuery }),
};
