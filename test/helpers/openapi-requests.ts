// Requests built from a service's own OpenAPI document: for every documented operation, path parameters from a few
// known values, the query string and JSON body derived from the documented schemas. Whatever they hold (valid by
// the schema or not), no answer may be a 5xx. Shared by the calendar and error reporting suites; schema-requests.ts
// does the same from the routes as registered, for suites that record them.
import fc from 'fast-check';
import { fromSchema } from '../fuzz/arbitraries.ts';

type Schema = Record<string, any>;

interface Operation {
  method: string;
  path: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

export interface FuzzOptions {
  headers: Record<string, string>;
  /** Values a path parameter takes (by name); a parameter without any gets a plain token. */
  pathValues: Record<string, string[]>;
  runs: number;
}

export interface Finding {
  method: string;
  url: string;
  body?: unknown;
  status: number;
  text: string;
}

export function operationsOf(doc: { paths: Record<string, Record<string, Schema>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, parameters: op.parameters, requestBody: op.requestBody })),
  );
}

const querySchemaOf = (op: Operation): Schema => {
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  return { type: 'object', properties: Object.fromEntries(query.map((p) => [p.name, p.schema])), required: query.filter((p) => p.required).map((p) => p.name) };
};

const queryText = (q: Record<string, unknown>) =>
  Object.entries(q)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof item === 'string' ? item : JSON.stringify(item))}`))
    .join('&');

/** Sends `runs` generated requests to each documented operation; answers every one that came back 5xx. */
export async function fuzzDocumented(base: string, doc: { paths: Record<string, Record<string, Schema>> }, options: FuzzOptions): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const op of operationsOf(doc)) {
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const pathArb = fc.tuple(...names.map((n) => fc.constantFrom(...(options.pathValues[n] ?? ['x1234'])))).map((values) =>
      names.reduce((p, n, i) => p.replace(`{${n}}`, encodeURIComponent(values[i]!)), op.path),
    );
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    const arb = fc.record({ path: pathArb, query: fromSchema(querySchemaOf(op)), body: bodySchema ? fromSchema(bodySchema) : fc.constant(undefined) });
    for (const sample of fc.sample(arb, options.runs)) {
      const query = queryText((sample.query ?? {}) as Record<string, unknown>);
      const url = `${base}${sample.path}${query ? `?${query}` : ''}`;
      const init: RequestInit = { method: op.method, headers: { ...options.headers, ...(sample.body !== undefined ? { 'content-type': 'application/json' } : {}) } };
      if (sample.body !== undefined) init.body = JSON.stringify(sample.body);
      const res = await fetch(url, init);
      const text = await res.text();
      if (res.status >= 500) findings.push({ method: op.method, url, body: sample.body, status: res.status, text: text.slice(0, 500) });
    }
  }
  return findings;
}
