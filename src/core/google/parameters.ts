// Method parameters of the Google-style APIs: the system parameters every method takes, and the refusal a method
// gives a parameter it does not know.
import { invalidArgument } from './errors.ts';

/** A field's proto name from its JSON name (`serviceContext` -> `service_context`), as Google's error texts name it. */
export const protoName = (jsonName: string): string => jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Parameters every Google API accepts on every method. */
export const SYSTEM_PARAMETERS: ReadonlySet<string> = new Set([
  'alt', 'fields', 'key', 'access_token', 'oauth_token', 'prettyPrint', 'quotaUser', '$.xgafv', 'upload_protocol', 'uploadType', 'callback', 'userIp',
]);

/** Refuses, as Google does, the first query parameter that is neither a system parameter nor one of `known`. */
export function refuseUnknownParameters(query: Record<string, unknown>, known: { has(key: string): boolean } | readonly string[]): void {
  const isKnown = Array.isArray(known) ? (key: string) => known.includes(key) : (key: string) => (known as { has(key: string): boolean }).has(key);
  for (const key of Object.keys(query)) {
    if (SYSTEM_PARAMETERS.has(key) || isKnown(key)) continue;
    throw invalidArgument(`Invalid JSON payload received. Unknown name "${key}": Cannot bind query parameter. Field '${key}' could not be found in request message.`, key);
  }
}
