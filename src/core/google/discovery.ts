// The discovery-style description of a Google-style service (the shape of Google's discovery documents), derived from
// the same route records as its OpenAPI document, served where Google serves it:
// GET /$discovery/rest?version=<v> and GET /discovery/v1/apis/<api>/<version>/rest.
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { openApiDocument, originOf, WILDCARD_PARAMETER } from '../http/openapi.ts';
import type { ServiceId } from '../service.ts';
import { notFound } from './errors.ts';
import { SYSTEM_PARAMETERS } from './parameters.ts';

/** Which Google API a service follows, and where its methods live. */
export interface GoogleApi {
  name: string;
  version: string;
  title: string;
  /** Google's servicePath: what method paths are relative to (after rootUrl). */
  servicePath: string;
  /** The routes that are methods of this API (other routes, such as upload or mirror prefixes, are left out). */
  routePrefix: string;
  /** Google's batchPath (after rootUrl): `batch/<api>/<version>` for the older APIs, `batch` for the newer ones. */
  batchPath: string;
  /** The most calls Google takes in one batch request (1000 unless the API's batch guide says fewer). */
  maxBatchCalls: number;
}

/** The Google-style services and the API each follows (core names services only by id, as in service.ts). */
export const GOOGLE_APIS: Partial<Record<ServiceId, GoogleApi>> = {
  bidding: { name: 'adexchangebuyer2', version: 'v2beta1', title: 'Ad Exchange Buyer API II', servicePath: '', routePrefix: '/v2beta1/', batchPath: 'batch', maxBatchCalls: 1000 },
  entities: { name: 'kgsearch', version: 'v1', title: 'Knowledge Graph Search API', servicePath: '', routePrefix: '/v1/', batchPath: 'batch', maxBatchCalls: 1000 },
  errorreporting: { name: 'clouderrorreporting', version: 'v1beta1', title: 'Error Reporting API', servicePath: '', routePrefix: '/v1beta1/', batchPath: 'batch', maxBatchCalls: 1000 },
  catalog: { name: 'content', version: 'v2.1', title: 'Content API for Shopping', servicePath: 'content/v2.1/', routePrefix: '/content/v2.1/', batchPath: 'batch', maxBatchCalls: 1000 },
  // Drive's and Calendar's batch guides: at most 100 and 50 calls.
  files: { name: 'drive', version: 'v2', title: 'Google Drive API', servicePath: 'drive/v2/', routePrefix: '/drive/v2/', batchPath: 'batch/drive/v2', maxBatchCalls: 100 },
  books: { name: 'books', version: 'v1', title: 'Books API', servicePath: '', routePrefix: '/books/v1/', batchPath: 'batch/books/v1', maxBatchCalls: 1000 },
  calendar: { name: 'calendar', version: 'v3', title: 'Calendar API', servicePath: 'calendar/v3/', routePrefix: '/calendar/v3/', batchPath: 'batch/calendar/v3', maxBatchCalls: 50 },
};

/** The API each listener follows, recorded by serveDiscovery (which runs before the service's routes). */
const apiOfListener = new WeakMap<FastifyInstance, GoogleApi>();

/** The Google API the listener `app` serves, if any (what the family installer reads to serve batch requests). */
export const googleApiOf = (app: FastifyInstance): GoogleApi | undefined => apiOfListener.get(app);

export interface DiscoveryParameter {
  type: string;
  location: 'path' | 'query';
  required?: boolean;
  description?: string;
  pattern?: string;
  default?: string;
}

export interface DiscoveryMethod {
  id: string;
  path: string;
  flatPath: string;
  httpMethod: string;
  description?: string;
  parameters: Record<string, DiscoveryParameter>;
  parameterOrder: string[];
  supportsMediaUpload?: boolean;
  mediaUpload?: { accept: string[]; protocols: { simple?: UploadProtocol; resumable?: UploadProtocol } };
}

/** Where a method's content goes (paths are absolute, from rootUrl, as Google's are). */
export interface UploadProtocol {
  multipart: boolean;
  path: string;
}

export interface DiscoveryResource {
  methods?: Record<string, DiscoveryMethod>;
  resources?: Record<string, DiscoveryResource>;
}

export interface RestDescription extends DiscoveryResource {
  kind: 'discovery#restDescription';
  discoveryVersion: 'v1';
  id: string;
  name: string;
  version: string;
  title: string;
  description: string;
  protocol: 'rest';
  rootUrl: string;
  servicePath: string;
  baseUrl: string;
  batchPath: string;
  parameters: Record<string, DiscoveryParameter>;
  schemas: Record<string, unknown>;
}

/** Registers both discovery routes when the service follows a Google API; a no-op otherwise. */
export function serveDiscovery(app: FastifyInstance, id: ServiceId): void {
  const api = GOOGLE_APIS[id];
  if (!api) return;
  apiOfListener.set(app, api);
  const missing = (url: string) => notFound(`The requested URL ${url.split('?')[0]} was not found on this server.`);
  app.get('/$discovery/rest', { schema: { hide: true } }, async (req) => {
    const version = (req.query as { version?: unknown }).version;
    if (version !== undefined && version !== api.version) throw missing(req.url);
    return restDescription(api, openApiDocument(app, originOf(req)), `${originOf(req)}/`);
  });
  app.get('/discovery/v1/apis/:api/:version/rest', { schema: { hide: true } }, async (req) => {
    const params = req.params as { api: string; version: string };
    if (params.api !== api.name || params.version !== api.version) throw missing(req.url);
    return restDescription(api, openApiDocument(app, originOf(req)), `${originOf(req)}/`);
  });
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The discovery document of `api` from the service's OpenAPI document: one method per operation under routePrefix. */
export function restDescription(api: GoogleApi, openapi: OpenAPIV3.Document, rootUrl: string): RestDescription {
  const operations: Array<{ path: string; httpMethod: string; operation: OpenAPIV3.OperationObject }> = [];
  for (const [path, item] of Object.entries(openapi.paths)) {
    if (!path.startsWith(api.routePrefix) || !item) continue;
    for (const verb of HTTP_METHODS) {
      const operation = item[verb];
      if (operation) operations.push({ path, httpMethod: verb.toUpperCase(), operation });
    }
  }
  const verbsByPath = new Map<string, Set<string>>();
  for (const o of operations) verbsByPath.set(o.path, (verbsByPath.get(o.path) ?? new Set()).add(o.httpMethod));
  const routedBelow = (path: string) => operations.some((o) => o.path.startsWith(`${path}/`));

  const root: DiscoveryResource = {};
  const taken = new Set<string>();
  for (const o of operations) {
    const { resources, method } = namesOf(o.path.slice(api.routePrefix.length), o.httpMethod, {
      postOnlyLeaf: verbsByPath.get(o.path)!.size === 1 && o.httpMethod === 'POST' && !routedBelow(o.path),
    });
    let name = method;
    for (let n = 2; taken.has([...resources, name].join('.')); n++) name = `${method}${n}`;
    taken.add([...resources, name].join('.'));
    let node = root;
    for (const r of resources) node = ((node.resources ??= {})[r] ??= {});
    const described = discoveryMethod(api, o.path, o.httpMethod, o.operation, [api.name, ...resources, name].join('.'));
    (node.methods ??= {})[name] = { ...described, ...mediaUploadOf(openapi, o.path, o.httpMethod) };
  }

  return {
    kind: 'discovery#restDescription',
    discoveryVersion: 'v1',
    id: `${api.name}:${api.version}`,
    name: api.name,
    version: api.version,
    title: api.title,
    description: `${openapi.info.title}: ${api.title} ${api.version} as served here. Method names are derived from the routes.`,
    protocol: 'rest',
    rootUrl,
    servicePath: api.servicePath,
    baseUrl: rootUrl + api.servicePath,
    batchPath: api.batchPath,
    parameters: systemParameters(),
    schemas: {},
    ...root,
  };
}

/**
 * Resource and method names from a path (relative to the API's prefix): literal segments name the nested resources;
 * a custom verb (`entities:search`) or a POST-only leaf segment (`calendars/{calendarId}/clear`) names the method;
 * otherwise the verb does, on an item (`get`, `update`, `patch`, `delete`) or on a collection (`list`, `insert`).
 */
function namesOf(relative: string, httpMethod: string, shape: { postOnlyLeaf: boolean }): { resources: string[]; method: string } {
  const segments = relative.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  const custom = /^(.*):(\w+)$/.exec(last);
  if (custom) segments[segments.length - 1] = custom[1];
  const isParameter = (s: string) => s.startsWith('{');
  const resources = segments.filter((s) => s && !isParameter(s));
  if (custom) return { resources, method: custom[2] };
  if (shape.postOnlyLeaf && segments.length >= 2 && !isParameter(last)) return { resources: resources.slice(0, -1), method: last };
  const onItem = isParameter(last);
  const method = onItem
    ? ({ GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as Record<string, string>)[httpMethod]
    : ({ GET: 'list', POST: 'insert', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as Record<string, string>)[httpMethod];
  return { resources, method: method ?? httpMethod.toLowerCase() };
}

function discoveryMethod(api: GoogleApi, openapiPath: string, httpMethod: string, operation: OpenAPIV3.OperationObject, id: string): DiscoveryMethod {
  // A wildcard route's parameter holds the rest of the path, slashes included: Google's reserved expansion.
  const wildcard = openapiPath.endsWith(`{${WILDCARD_PARAMETER}}`);
  let path = openapiPath.slice(1 + api.servicePath.length);
  if (wildcard) path = path.slice(0, -(WILDCARD_PARAMETER.length + 2)) + `{+${WILDCARD_PARAMETER}}`;
  const parameters: Record<string, DiscoveryParameter> = {};
  const parameterOrder: string[] = [];
  for (const p of (operation.parameters ?? []) as OpenAPIV3.ParameterObject[]) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    const schema = (p.schema ?? {}) as OpenAPIV3.SchemaObject;
    parameters[p.name] = {
      type: typeof schema.type === 'string' ? schema.type : 'string',
      location: p.in,
      ...(p.required ? { required: true } : {}),
      ...(p.description ?? schema.description ? { description: p.description ?? schema.description } : {}),
      ...(wildcard && p.name === WILDCARD_PARAMETER ? { pattern: '^.*$' } : {}),
    };
    if (p.in === 'path') parameterOrder.push(p.name);
  }
  return {
    id,
    path,
    flatPath: path,
    httpMethod,
    ...(operation.description ? { description: operation.description } : {}),
    parameters,
    parameterOrder,
  };
}

/** A method whose path is also served under `/upload` (and `/resumable/upload`) with the same verb takes content. */
function mediaUploadOf(openapi: OpenAPIV3.Document, path: string, httpMethod: string): Pick<DiscoveryMethod, 'supportsMediaUpload' | 'mediaUpload'> {
  const served = (p: string) => Boolean(openapi.paths[p]?.[httpMethod.toLowerCase() as (typeof HTTP_METHODS)[number]]);
  const simple = `/upload${path}`;
  const resumable = `/resumable/upload${path}`;
  if (!served(simple)) return {};
  return {
    supportsMediaUpload: true,
    mediaUpload: {
      accept: ['*/*'],
      protocols: { simple: { multipart: true, path: simple }, ...(served(resumable) ? { resumable: { multipart: true, path: resumable } } : {}) },
    },
  };
}

/** The parameters every method accepts (see parameters.ts). */
function systemParameters(): Record<string, DiscoveryParameter> {
  const out: Record<string, DiscoveryParameter> = {};
  for (const name of SYSTEM_PARAMETERS) {
    out[name] = name === 'prettyPrint' ? { type: 'boolean', location: 'query', default: 'true' } : { type: 'string', location: 'query' };
  }
  return out;
}
