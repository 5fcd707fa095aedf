// Documented requests of permissions.* and permissionIds.get: a Permission (domain/permission-input.ts reads it).
import { Type, type TSchema } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { GRANTEE_TYPES, ROLES } from '../../domain/roles.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { stringEnum } from '../../../../core/http/schema-types.ts';
import { ALL_DRIVES, FILE_ID, FileParams, PAGE_TOKEN, flag, integer, pathParams, text } from './common.ts';

const Role = stringEnum(ROLES, { description: 'The primary role (commenter may also be written as reader with additionalRoles ["commenter"]).' });
const GranteeType = stringEnum(GRANTEE_TYPES, { description: 'The account type of the grantee (cannot be changed once set).' });

/** An insert names the grantee type and the role (a user, group or domain grantee also needs a value); a patch need not. */
const permission = (insert: boolean) => {
  const needed = <T extends TSchema>(schema: T) => (insert ? schema : Type.Optional(schema));
  return Type.Object(
    {
      role: needed(Role),
      type: needed(GranteeType),
      additionalRoles: Type.Optional(Type.Array(Type.String(), { description: 'Additional roles; only "commenter" has an effect.' })),
      value: text('The email address or domain name of the grantee.', 320),
      emailAddress: text('The email address of the grantee (read when value is left out).', 320),
      domain: text('The domain of a domain permission (read when value is left out).', 320),
      withLink: flag('Whether the link is required for this permission.'),
      expirationDate: Type.Optional(
        Type.String({ format: 'date-time', description: 'When the permission expires (RFC 3339): in the future, at most a year ahead; user and group permissions only.' }),
      ),
    },
    { description: 'A Permission; read-only fields are ignored.' },
  );
};

const PermissionParams = pathParams({ ...FILE_ID, permissionId: 'The ID of the permission.' });

export const PERMISSION_SCHEMAS = {
  list: documented({ params: FileParams, querystring: googleQuery({ ...ALL_DRIVES, ...PAGE_TOKEN, maxResults: integer(1, 100, 'Maximum number of permissions to return (default 100).') }, { unknownParameters: 'ignored' }) }),
  get: documented({ params: PermissionParams, querystring: googleQuery(ALL_DRIVES, { unknownParameters: 'ignored' }) }),
  insert: documented({
    params: FileParams,
    querystring: googleQuery({
      ...ALL_DRIVES,
      sendNotificationEmails: flag('Whether to send notification emails when sharing to users or groups (default true).'),
      emailMessage: text('A plain text custom message to include in notification emails.', 10_000),
    }, { unknownParameters: 'ignored' }),
    body: permission(true),
  }),
  update: documented({
    params: PermissionParams,
    querystring: googleQuery({
      ...ALL_DRIVES,
      transferOwnership: flag("Whether changing a role to 'owner' downgrades the current owner to writer."),
      removeExpiration: flag('Whether to remove the expiration date.'),
    }, { unknownParameters: 'ignored' }),
    body: permission(false),
  }),
  delete: documented({ params: PermissionParams, querystring: googleQuery(ALL_DRIVES, { unknownParameters: 'ignored' }) }),
  getIdForEmail: documented({ params: pathParams({ email: 'The email address for which to return a permission ID.' }), querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
};
