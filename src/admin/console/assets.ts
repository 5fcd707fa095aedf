// Static files of the console: its own browser modules (ui/) and the ES-module builds of the UI libraries it uses,
// found in node_modules through the module resolver, so nothing is copied or built.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { adminError } from '../errors.ts';

/** Import-map names the browser modules use, and the package entry that serves each. */
export const VENDOR_MODULES: Record<string, string> = {
  preact: 'preact',
  'preact/hooks': 'preact/hooks',
  htm: 'htm',
};

const UI_DIR = fileURLToPath(new URL('./ui/', import.meta.url));
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

interface Asset {
  type: string;
  body: Buffer;
}

function loadAssets(): { ui: Map<string, Asset>; vendor: Map<string, Asset> } {
  const ui = new Map<string, Asset>();
  for (const name of readdirSync(UI_DIR)) {
    const type = TYPES[extname(name)];
    if (type) ui.set(name, { type, body: readFileSync(join(UI_DIR, name)) });
  }
  const vendor = new Map<string, Asset>();
  for (const [name, specifier] of Object.entries(VENDOR_MODULES)) {
    vendor.set(`${name}.js`, { type: TYPES['.js'], body: readFileSync(fileURLToPath(import.meta.resolve(specifier))) });
  }
  return { ui, vendor };
}

export function assetRoutes(app: FastifyInstance): void {
  const { ui, vendor } = loadAssets();
  const serve = (files: Map<string, Asset>) => async (req: { params: unknown }, reply: any) => {
    const name = (req.params as { '*': string })['*'];
    const asset = files.get(name);
    if (!asset) throw adminError(404, `no console file ${name}`);
    return reply.header('content-type', asset.type).header('cache-control', 'no-cache').header('x-content-type-options', 'nosniff').send(asset.body);
  };
  app.get('/console/ui/*', serve(ui));
  app.get('/console/vendor/*', serve(vendor));
}
