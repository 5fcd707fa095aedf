// The documented request bodies of the watch methods (a Channel resource) and of channels.stop, as watch-channels.ts
// reads them: it checks every field itself, and fields it does not read are ignored, so both objects stay open.
import { Type } from '@sinclair/typebox';
import { stringEnum } from '../http/schema-types.ts';

/** A notification channel, the body of every watch method. */
export const WatchChannelBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9\\-_+/=]+$', description: 'A UUID or similar unique string that identifies this channel.' }),
    type: Type.Optional(stringEnum(['web_hook', 'webhook'], { description: 'The type of delivery mechanism used for this channel.' })),
    address: Type.String({ format: 'uri', description: 'The address where notifications are delivered for this channel (an absolute http or https URL).' }),
    token: Type.Optional(Type.String({ maxLength: 256, description: 'An arbitrary string delivered to the target address with each notification.' })),
    expiration: Type.Optional(
      Type.Union([Type.String({ pattern: '^\\d{1,16}$' }), Type.Integer({ minimum: 0 })], {
        description: "Date and time of notification channel expiration, as milliseconds since the epoch; a later one than the method's longest lifetime is cut to it.",
      }),
    ),
    params: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Additional parameters controlling delivery channel behavior.' })),
  },
  { additionalProperties: true, description: 'A notification channel used to watch for resource changes.' },
);

/** The body of channels.stop. */
export const StopChannelBody = Type.Object(
  {
    id: Type.String({ description: 'The id of the channel to stop.' }),
    resourceId: Type.String({ description: 'The resourceId the watch method answered for the channel.' }),
  },
  { additionalProperties: true, description: 'The channel to stop; other fields are ignored.' },
);
