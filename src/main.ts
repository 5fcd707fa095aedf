// Builds the runtime from a validated config: which services, which ports, which database.
import { buildAdmin } from './admin/index.ts';
import { databaseUrl, portOf, type Config } from './config.ts';
import { Runtime } from './core/runtime.ts';
import type { ServiceId } from './core/service.ts';
import { whenWarm } from './core/warm-up.ts';
import { SERVICES } from './services/index.ts';

export function selectedServices(config: Config) {
  return config.only.length ? SERVICES.filter((s) => config.only.includes(s.id)) : SERVICES;
}

export async function startFromConfig(config: Config, options: { listen?: boolean } = {}): Promise<Runtime> {
  const rt = await Runtime.start(
    {
      dataDir: config.dataDir,
      databaseUrl: databaseUrl(config),
      sqliteSynchronous: config.sqliteSynchronous,
      listenerLimits: config.listenerLimits,
      caches: config.caches,
      host: config.host,
      ports: (id: ServiceId | 'admin') => portOf(config, id),
      clock: config.clock,
      clockStart: config.clockStart ? Date.parse(config.clockStart) : undefined,
      logLevel: config.logLevel,
      masterKey: config.masterKey,
      devApiKey: config.devApiKey,
      devToken: config.devToken,
      principals: config.principals,
      settings: config.services,
      listen: options.listen,
    },
    selectedServices(config),
    buildAdmin,
  );
  // Without listeners (reset, export, data commands) nothing waits at a service's door: hand over finished data.
  if (options.listen === false) {
    try {
      await whenWarm([...rt.services.values()].map((s) => s.ctx));
    } catch (err) {
      await rt.close();
      throw err;
    }
  }
  return rt;
}

/** Google-style services accept the development user's API key or bearer token unless they say otherwise. */
function defaultHints(rt: Runtime) {
  return [
    { label: 'API key (?key=)', value: rt.options.devApiKey },
    { label: 'Bearer token', value: rt.options.devToken },
  ];
}

/** The table printed at start: each service, where it listens, and what a caller needs. */
export async function startTable(rt: Runtime): Promise<string> {
  const rows: string[][] = [['service', 'url', 'credentials']];
  if (rt.admin) rows.push(['admin', rt.admin.url, 'none (loopback control plane)']);
  for (const [id, s] of rt.services) {
    const hints = (await s.manifest.credentials?.(s.ctx)) ?? defaultHints(rt);
    const text = hints.length ? hints.map((h) => (h.value ? `${h.label}: ${h.value}` : h.label)) : ['-'];
    rows.push([id, s.url, text[0]]);
    for (const more of text.slice(1)) rows.push(['', '', more]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}
