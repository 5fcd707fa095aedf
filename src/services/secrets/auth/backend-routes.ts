// A small path table for the access half's backends: a path pattern, the operations it serves, and an optional
// existence check. Unknown paths answer 404 `unsupported path`; a known path with another operation 405.
import { notFound, unsupportedOperation, unsupportedPath, type BarrierStorage, type LogicalRequest, type LogicalResponse, type Operation } from '../contract.ts';

export type RouteHandler = (req: LogicalRequest, match: RegExpMatchArray) => Promise<LogicalResponse | null>;

export interface BackendRoute {
  /** OpenAPI path relative to the mount, with templates (`/roles/{role_name}`). */
  path: string;
  summary: string;
  pattern: RegExp;
  operations: Partial<Record<Operation, RouteHandler>>;
  exists?: (req: LogicalRequest, match: RegExpMatchArray) => Promise<boolean>;
}

function find(routes: BackendRoute[], path: string): { route: BackendRoute; match: RegExpMatchArray } | undefined {
  for (const route of routes) {
    const match = path.match(route.pattern);
    if (match) return { route, match };
  }
  return undefined;
}

export async function dispatch(routes: BackendRoute[], req: LogicalRequest): Promise<LogicalResponse | null> {
  const found = find(routes, req.relativePath);
  if (!found) throw unsupportedPath();
  // create and update share a handler unless a route tells them apart
  const op = req.operation;
  const handler = found.route.operations[op] ?? (op === 'create' ? found.route.operations.update : op === 'update' ? found.route.operations.create : undefined);
  if (!handler) throw unsupportedOperation();
  return handler(req, found.match);
}

export async function existence(routes: BackendRoute[], req: LogicalRequest): Promise<boolean> {
  const found = find(routes, req.relativePath);
  if (!found?.route.exists) return true;
  return found.route.exists(req, found.match);
}

/** A LIST answer; an empty list is a 404 with no errors, as Vault answers it. */
export function listResponse(keys: string[], keyInfo?: Record<string, unknown>): LogicalResponse {
  if (keys.length === 0) throw notFound();
  return { data: keyInfo ? { keys, key_info: keyInfo } : { keys } };
}

/** `?help=1`: markdown naming the backend's paths, and OpenAPI path items built from the route table. */
export function routesHelp(title: string, routes: BackendRoute[]): { help: string; paths: Record<string, unknown> } {
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    const item: Record<string, unknown> = { description: route.summary };
    const ops = Object.keys(route.operations) as Operation[];
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (params.length) item.parameters = params;
    if (ops.includes('read') || ops.includes('list')) {
      item.get = {
        summary: route.summary,
        ...(ops.includes('list') ? { parameters: [{ name: 'list', in: 'query', required: !ops.includes('read'), schema: { type: 'string', enum: ['true'] } }] } : {}),
        responses: { 200: { description: 'OK' } },
      };
    }
    if (ops.includes('create') || ops.includes('update')) item.post = { summary: route.summary, responses: { 200: { description: 'OK' }, 204: { description: 'empty body' } } };
    if (ops.includes('delete')) item.delete = { summary: route.summary, responses: { 204: { description: 'empty body' } } };
    paths[route.path] = item;
  }
  const lines = routes.map((r) => `- \`${r.path}\`: ${r.summary}`);
  return { help: `## DESCRIPTION\n\n${title}\n\n## PATHS\n\n${lines.join('\n')}\n`, paths };
}

/** LIST of the items kept one per key directly in `storage` (users, roles). `path` is `/<segment>`. */
export function listItemsRoute(path: string, summary: string, storage: BarrierStorage): BackendRoute {
  return {
    path,
    summary,
    pattern: new RegExp(`^${path.slice(1)}\\/?$`),
    operations: { list: async () => listResponse((await storage.list('')).filter((k) => !k.endsWith('/'))) },
  };
}

/** The existence check of an item named by the route's first capture (names are case-insensitive). */
export const itemExists =
  (storage: BarrierStorage) =>
  async (_req: LogicalRequest, m: RegExpMatchArray): Promise<boolean> =>
    (await storage.get(m[1].toLowerCase())) !== undefined;

/** Reads an item by name, or answers 404. */
export async function readItem<T>(storage: BarrierStorage, name: string): Promise<T> {
  const item = await storage.get<T>(name.toLowerCase());
  if (item === undefined) throw notFound();
  return item;
}
