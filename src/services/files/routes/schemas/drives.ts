// Documented requests of drives.*: a Drive's writable fields (name, colour, theme, restrictions).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { googleQuery } from '../../../../core/google/query-schema.ts';
import { PAGE_TOKEN, flag, integer, pathParams, text } from './common.ts';

export const MAX_DRIVE_NAME = 256;
export const DRIVE_RESTRICTIONS = ['adminManagedRestrictions', 'copyRequiresWriterPermission', 'domainUsersOnly', 'driveMembersOnly', 'sharingFoldersRequiresOrganizerPermission'] as const;

const RESTRICTION_DESCRIPTIONS: Record<(typeof DRIVE_RESTRICTIONS)[number], string> = {
  adminManagedRestrictions: 'Whether administrative privileges on this shared drive are required to modify restrictions.',
  copyRequiresWriterPermission: 'Whether copying, printing and downloading files inside this shared drive are disabled for readers and commenters.',
  domainUsersOnly: "Whether access to this shared drive and items inside it is restricted to users of the domain.",
  driveMembersOnly: 'Whether access to items inside this shared drive is restricted to its members.',
  sharingFoldersRequiresOrganizerPermission: 'Whether only organizers can share folders of this shared drive.',
};

/** insert needs a name; update changes what it names. Unknown restrictions are refused, other unknown fields ignored. */
const drive = (nameRequired: boolean) => {
  const name = Type.String({ minLength: 1, maxLength: MAX_DRIVE_NAME, description: 'The name of this shared drive (not blank).' });
  return Type.Object(
    {
      name: nameRequired ? name : Type.Optional(name),
      colorRgb: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'The color of this shared drive as an RGB hex string.' })),
      themeId: text('The ID of the theme from which the background image and color are set.', 64),
      restrictions: Type.Optional(
        Type.Object(
          Object.fromEntries(DRIVE_RESTRICTIONS.map((k) => [k, flag(RESTRICTION_DESCRIPTIONS[k])])),
          { additionalProperties: false, description: 'A set of restrictions that apply to this shared drive.' },
        ),
      ),
    },
    { description: 'A Drive; read-only fields are ignored.' },
  );
};

const DriveParams = pathParams({ driveId: 'The ID of the shared drive.' });

export const DRIVE_SCHEMAS = {
  insert: documented({
    querystring: googleQuery({ requestId: Type.String({ minLength: 1, maxLength: 256, description: 'An ID, such as a random UUID, which uniquely identifies this request (idempotent creation).' }) }, { unknownParameters: 'ignored' }),
    body: drive(true),
  }),
  get: documented({ params: DriveParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  list: documented({
    querystring: googleQuery({
      ...PAGE_TOKEN,
      maxResults: integer(1, 100, 'Maximum number of shared drives to return (default 10).'),
      q: text("Query for shared drives: name (=, !=, contains) and hidden (=, !=) terms joined by and."),
      useDomainAdminAccess: flag('Accepted and ignored.'),
    }, { unknownParameters: 'ignored' }),
  }),
  update: documented({ params: DriveParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }), body: drive(false) }),
  hide: documented({ params: DriveParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
  delete: documented({ params: DriveParams, querystring: googleQuery({}, { unknownParameters: 'ignored' }) }),
};
