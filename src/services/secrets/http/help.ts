// ?help=1 and the HELP verb: markdown help plus an OpenAPI 3 document of the queried path and the paths below it,
// with paths relative to the queried path.
import type { Backend, LogicalRequest, LogicalResponse, SystemRoute } from '../contract.ts';

/** Keeps the path items at or below `relative` (templated segments match anything) and rebases them onto it. */
export function rebasePaths(paths: Record<string, unknown>, relative: string): Record<string, unknown> {
  const base = '/' + relative.replace(/\/+$/, '');
  if (base === '/') return paths;
  const baseSegments = base.split('/').slice(1);
  const out: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths)) {
    const segments = path.split('/').slice(1);
    let i = 0;
    let ok = true;
    for (; i < baseSegments.length; i++) {
      const s = segments[i];
      if (s === undefined) {
        ok = false;
        break;
      }
      if (s.startsWith('{')) {
        i = segments.length; // a template absorbs the rest of the queried path
        break;
      }
      if (s !== baseSegments[i]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const rest = segments.slice(Math.min(i, segments.length));
    out['/' + rest.join('/')] = item;
  }
  return out;
}

export function helpResponse(backend: Backend | undefined, route: SystemRoute | undefined, req: LogicalRequest): LogicalResponse {
  let help = '## DESCRIPTION\n\nNo help is available for this path.\n';
  let paths: Record<string, unknown> = {};
  if (backend?.help) {
    const h = backend.help(req);
    help = h.help;
    paths = rebasePaths(h.paths, req.relativePath);
  } else if (route) {
    help = route.help ?? `## DESCRIPTION\n\nSystem endpoint matching ${route.pattern.source}.\n`;
    paths = { '/': { description: help } };
  }
  const openapi = { openapi: '3.0.2', info: { title: 'HashiCorp Vault API', description: 'HTTP API that gives you full access to Vault.', version: '1.17.0', license: { name: 'Mozilla Public License 2.0', url: 'https://www.mozilla.org/en-US/MPL/2.0' } }, paths, components: { schemas: {} } };
  return { raw: { status: 200, body: { help, openapi, see_also: null } } };
}
