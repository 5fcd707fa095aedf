// The documented Channel resource of the watch methods and channels.stop, as core/google/watch-channels.ts reads it
// (other fields are ignored).
import { Type } from '@sinclair/typebox';
import { stringEnum } from './common.ts';

export const WatchChannel = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9\\-_+/=]+$', description: 'A UUID or similar unique string that identifies this channel.' }),
    type: Type.Optional(stringEnum(['web_hook', 'webhook'], { description: 'The type of delivery mechanism used for this channel.' })),
    address: Type.String({ format: 'uri', description: 'The address where notifications are delivered for this channel (an absolute http or https URL).' }),
    token: Type.Optional(Type.String({ maxLength: 256, description: 'An arbitrary string delivered to the target address with each notification.' })),
    expiration: Type.Optional(
      Type.Union([Type.String({ pattern: '^\\d{1,16}$' }), Type.Integer({ minimum: 0 })], {
        description: 'Date and time of notification channel expiration, as milliseconds since the epoch; at most a week ahead, a day by default.',
      }),
    ),
    params: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Additional parameters controlling delivery channel behavior.' })),
  },
  { additionalProperties: true, description: 'A notification channel used to watch for resource changes.' },
);

export const StopChannel = Type.Object(
  {
    id: Type.String({ description: 'The id of the channel to stop.' }),
    resourceId: Type.String({ description: 'The resourceId the watch method answered for the channel.' }),
  },
  { additionalProperties: true },
);
