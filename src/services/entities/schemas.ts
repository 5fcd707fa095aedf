// The entity document accepted by the admin API and `twinstack entities load`.
import { Type, type Static } from '@sinclair/typebox';

const Language = Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const EntityId = Type.String({ pattern: '^(kg:)?/[a-z]/[0-9a-z_]{1,64}$' });
const Url = Type.String({ pattern: '^https?://', maxLength: 2048 });

export const EntityInput = Type.Object(
  {
    id: EntityId,
    types: Type.Array(Type.String({ pattern: '^[A-Z][A-Za-z0-9]{0,63}$' }), { maxItems: 20 }),
    names: Type.Record(Language, Text(500), { minProperties: 1 }),
    aliases: Type.Optional(Type.Record(Language, Type.Array(Text(500), { maxItems: 50 }))),
    descriptions: Type.Optional(Type.Record(Language, Text(1000))),
    detailedDescriptions: Type.Optional(
      Type.Record(Language, Type.Object({ articleBody: Text(20_000), url: Type.Optional(Url), license: Type.Optional(Url) }, { additionalProperties: false })),
    ),
    image: Type.Optional(Type.Object({ contentUrl: Url, url: Type.Optional(Url), license: Type.Optional(Url) }, { additionalProperties: false })),
    url: Type.Optional(Url),
    popularity: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9 })),
    links: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z][A-Za-z]{0,63}$' }), Type.Array(EntityId, { maxItems: 1000 }))),
    geo: Type.Optional(
      Type.Object({ latitude: Type.Number({ minimum: -90, maximum: 90 }), longitude: Type.Number({ minimum: -180, maximum: 180 }) }, { additionalProperties: false }),
    ),
    population: Type.Optional(Type.Integer({ minimum: 0, maximum: 1e11 })),
  },
  { additionalProperties: false },
);
export type EntityInput = Static<typeof EntityInput>;
