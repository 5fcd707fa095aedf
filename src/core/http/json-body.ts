// JSON request bodies, parsed once with limits that hold for every service: a nesting depth past which a document is
// refused (deeply nested input overflows the stack of any recursive walk later: stringify, merge, validation) and
// the empty body that many clients send with `Content-Type: application/json` on operations that take none.
import secureJson from 'secure-json-parse';

/** Deepest nesting of objects and arrays accepted in a request body. */
export const MAX_JSON_DEPTH = 100;

export class JsonBodyError extends Error {
  readonly statusCode = 400;
  readonly code = 'FST_ERR_CTP_INVALID_JSON_BODY';
}

/** The deepest nesting in a JSON text, counted without recursion (brackets inside strings do not count). */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** Parses a request body: undefined when empty; JsonBodyError when malformed or nested deeper than `maxDepth`. */
export function parseJsonBody(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (text.trim() === '') return undefined;
  if (jsonNestingDepth(text) > maxDepth) throw new JsonBodyError(`JSON nesting is deeper than ${maxDepth} levels`);
  try {
    // Prototype-poisoning keys are refused, as Fastify's own parser does.
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw new JsonBodyError((err as Error).message);
  }
}
