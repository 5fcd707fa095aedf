// custombatch: one POST carrying entries, each run as the operation its `method` names, authorised on its own.
// The answer is 200 with one entry per request entry; a failing entry carries `errors` and leaves the others intact.
import { GoogleError } from '../../../core/google/index.ts';
import { own } from '../../../core/own.ts';
import type { Caller } from '../access.ts';
import type { Catalog } from '../catalog.ts';
import { checkWire } from '../wire/validate.ts';
import { batchBody } from '../schemas/batch.ts';
import { entryErrors, execute, type Operation } from './operation.ts';

export interface BatchMethod {
  /** The operation an entry with this method runs. */
  op: Operation;
  /** Entry field carrying the request body (e.g. `product`). */
  body?: string;
  /** Response entry field receiving the operation's result (e.g. `product`). */
  result?: string;
}

export interface BatchSpec {
  /** Path, e.g. `/products/batch`. */
  path: string;
  method: string;
  /** Wire type of the request, e.g. `ProductsCustomBatchRequest`. */
  wire: string;
  kind?: string;
  entryKind?: string;
  /** Entry fields passed to the operation as path parameters. */
  params: string[];
  methods: Record<string, BatchMethod>;
}

/** The most entries one batch may carry. */
export const MAX_BATCH_ENTRIES = 10_000;
/** Entries run concurrently; their writes share group commits. */
const CONCURRENCY = 64;

export function batchOperation(spec: BatchSpec): Operation {
  return {
    method: spec.method,
    verb: 'POST',
    path: spec.path,
    scope: 'caller',
    request: { body: batchBody(spec, MAX_BATCH_ENTRIES) },
    async run(cat, call) {
      const request = checkWire<{ entries?: Array<Record<string, unknown>> }>(call.body ?? {}, spec.wire, 'request');
      const entries = request.entries ?? [];
      if (entries.length > MAX_BATCH_ENTRIES) throw new GoogleError(400, `Too many entries in the batch: at most ${MAX_BATCH_ENTRIES}.`, { reason: 'invalid' });
      // Every entry's method is resolved before any runs: one unknown method refuses the whole batch.
      const methods = entries.map((entry, i) => methodOf(spec, entry.method, i));
      const out: Array<Record<string, unknown>> = new Array(entries.length);
      const accessMemo = new Map<string, Promise<unknown>>();
      let next = 0;
      const worker = async () => {
        while (next < entries.length) {
          const i = next++;
          out[i] = await runEntry(cat, spec, methods[i], entries[i], call.caller, accessMemo);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, entries.length) }, worker));
      const response: Record<string, unknown> = {};
      if (spec.kind) response.kind = spec.kind;
      response.entries = out;
      return response;
    },
  };
}

/** The batch method an entry names; `constructor` and the like are not methods, though a plain object inherits them. */
function methodOf(spec: BatchSpec, method: unknown, index: number): BatchMethod {
  const found = typeof method === 'string' ? own(spec.methods, method) : undefined;
  if (found) return found;
  throw new GoogleError(400, `Invalid value at 'entries[${index}].method': ${JSON.stringify(method ?? '')}; expected one of ${Object.keys(spec.methods).join(', ')}.`, {
    reason: 'invalid',
  });
}

async function runEntry(cat: Catalog, spec: BatchSpec, m: BatchMethod, entry: Record<string, unknown>, caller: Caller, accessMemo: Map<string, Promise<unknown>>): Promise<Record<string, unknown>> {
  const answer: Record<string, unknown> = {};
  if (spec.entryKind) answer.kind = spec.entryKind;
  answer.batchId = entry.batchId;
  const params: Record<string, string> = {};
  for (const p of spec.params) if (entry[p] !== undefined) params[p] = String(entry[p]);
  try {
    const result = await execute(cat, m.op, { caller, params, query: entry, body: m.body ? (entry[m.body] ?? {}) : {}, accessMemo });
    if (m.result && result !== undefined) answer[m.result] = result;
  } catch (err) {
    answer.errors = entryErrors(err);
  }
  return answer;
}

/** `accounttax` -> `AccounttaxCustomBatchRequest`, the wire name of a resource's batch body. */
export const batchWireOf = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}CustomBatchRequest`;
