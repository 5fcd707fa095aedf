// Documented requests of files.listLabels and files.modifyLabels (domain/labels.ts reads the modifications).
import { Type, type TSchema } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { FileParams, PAGE_TOKEN, integer } from './common.ts';

const ID_PATTERN = '^[\\w-]{1,128}$';

/** A list of 1 to 100 values of one type. */
const values = (item: TSchema, description: string) => Type.Optional(Type.Array(item, { minItems: 1, maxItems: 100, description }));

const FieldModification = Type.Object(
  {
    fieldId: Type.String({ pattern: ID_PATTERN, description: 'The ID of the field to be modified.' }),
    setTextValues: values(Type.String({ maxLength: 100 }), 'Sets the value of a text field.'),
    setIntegerValues: values(Type.Union([Type.Integer(), Type.String({ pattern: '^-?[0-9]{1,18}$' })]), 'Replaces the value of an integer field.'),
    setDateValues: values(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }), 'Replaces the value of a date field (YYYY-MM-DD).'),
    setSelectionValues: values(Type.String({ pattern: ID_PATTERN }), 'Replaces a selection field with these choice IDs.'),
    setUserValues: values(Type.String({ format: 'email' }), 'Replaces a user field with these email addresses.'),
    unsetValues: Type.Optional(Type.Boolean({ description: 'Unsets the values for this field (not with a set*Values).' })),
  },
  { description: 'A modification to one field of a label: at most one kind of value set, or the field unset.' },
);

const LabelModification = Type.Object(
  {
    labelId: Type.String({ pattern: ID_PATTERN, description: 'The ID of the label to modify.' }),
    removeLabel: Type.Optional(Type.Boolean({ description: 'If true, the label will be removed from the file.' })),
    fieldModifications: Type.Optional(Type.Array(FieldModification, { description: 'The list of modifications to this label’s fields.' })),
  },
  { description: 'A modification to a label on a file.' },
);

const ModifyLabelsRequest = Type.Object(
  { labelModifications: Type.Array(LabelModification, { description: 'The list of modifications to apply to the labels on the file.' }) },
  { description: 'A request to modify the set of labels on a file.' },
);

export const LABEL_SCHEMAS = {
  list: documented({ params: FileParams, querystring: googleQuery({ ...PAGE_TOKEN, maxResults: integer(1, 100, 'Maximum number of labels to return (default 100).') }, { unknownParameters: 'ignored' }) }),
  modify: documented({ params: FileParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: ModifyLabelsRequest }),
};
