// The documented body of a custombatch: `entries` of the resource's entry type, each naming one of the batch's
// methods (required), with the entry field that carries a body described as that method's own body.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { BatchSpec } from '../layer/batch.ts';
import { WIRE_TYPES } from '../wire/types.ts';
import { wireBody } from './wire.ts';

export function batchBody(spec: BatchSpec, maxEntries: number): TObject {
  const entryType = WIRE_TYPES[spec.wire]?.entries?.replace(/\[\]$/, '');
  if (!entryType) throw new Error(`${spec.wire} has no entries`);
  const methods = Object.entries(spec.methods);
  // An entry field carrying a body takes the body of whichever method the entry names (insert's or update's).
  const bodies = new Map<string, Set<TSchema>>();
  for (const [, m] of methods) {
    if (!m.body || !m.op.request?.body) continue;
    bodies.set(m.body, (bodies.get(m.body) ?? new Set()).add(m.op.request.body));
  }
  const nested = Object.fromEntries([...bodies].map(([field, schemas]) => [field, schemas.size === 1 ? [...schemas][0] : Type.Union([...schemas])]));
  const entry = wireBody(entryType, {
    rules: {
      method: { enum: methods.map(([name]) => name), description: 'The method this entry runs.' },
      batchId: { description: 'An id of the caller\'s choosing, repeated in the answer entry.' },
    },
    nested,
    required: ['method'],
  });
  return wireBody(spec.wire, { nested: { entries: Type.Array(entry, { maxItems: maxEntries, description: 'The calls, each answered by an entry of the same batchId.' }) } });
}
