// A fresh one-time API key for calls made by hand (curl, the console, scripts): built as a client library builds it,
// from the client's licence key and the service's clock, so it passes the same checks as any other key.
import { randomBytes } from 'node:crypto';
import { makeApiKey } from './domain/api-key.ts';
import type { Gateway } from './gateway.ts';

/** The key, or undefined when the client does not exist. */
export async function mintApiKey(g: Gateway, clientid: string): Promise<string | undefined> {
  const licenceKey = await g.clients.licenceKeyOf(clientid);
  if (licenceKey === undefined) return undefined;
  return makeApiKey(clientid, licenceKey, randomBytes(16), g.ctx.clock.now());
}
