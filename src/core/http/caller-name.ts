// A service that checks callers by its own means (Vault tokens, payment API keys) names the caller of a request for
// the request inspector, which on its own resolves only the core credentials (bearer tokens, API keys).
import type { IncomingMessage } from 'node:http';

/** A property of the request itself: a WeakMap entry per request cost every request in the collector. */
const CALLER = Symbol('caller name');

type Named = IncomingMessage & { [CALLER]?: string };

/** Records who made the request (never a secret: a client id, a token's display name and accessor). */
export function nameCaller(raw: IncomingMessage | undefined, name: string): void {
  if (raw) (raw as Named)[CALLER] = name;
}

export function callerNameOf(raw: IncomingMessage): string | undefined {
  return (raw as Named)[CALLER];
}
