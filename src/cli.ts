// The `twinstack` command: start, reset, and per-service data commands.
import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { exportToFile, importFromFile, readManifest, type ImportSummary } from './core/archive/index.ts';
import { watchParent } from './core/parent-watch.ts';
import { writePidFile } from './core/pid-file.ts';
import { collectLoadingGarbage } from './core/loading-garbage.ts';
import { holdWarmUps, whenWarm } from './core/warm-up.ts';
import { SERVICE_IDS } from './core/service.ts';
import { startFromConfig, startTable } from './main.ts';
import { SERVICES } from './services/index.ts';

const program = new Command('twinstack')
  .description('Local, durable twins of nine HTTP APIs with real behaviour.')
  .showHelpAfterError();

const intArg = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('not an integer');
  return n;
};

/** Options every command that opens the data shares. */
function dataOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'JSON config file (default: ./twinstack.config.json if present)')
    .option('--data-dir <dir>', 'data directory (default: ./.twinstack)')
    .option('--database <url>', 'SQLite file path or postgres:// URL (default: <data-dir>/twinstack.db)')
    .option('--only <ids>', `comma-separated services (${SERVICE_IDS.join(', ')})`)
    .addOption(new Option('--log-level <level>').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']));
}

function configFrom(opts: Record<string, unknown>): Config {
  const ports: Record<string, number> = {};
  for (const id of [...SERVICE_IDS, 'admin']) {
    const v = opts[`port${id[0].toUpperCase()}${id.slice(1)}`];
    if (v !== undefined) ports[id] = v as number;
  }
  return loadConfig({
    flags: {
      config: opts.config as string | undefined,
      dataDir: opts.dataDir,
      database: opts.database,
      only: opts.only,
      host: opts.host,
      portBase: opts.portBase,
      ports: Object.keys(ports).length ? ports : undefined,
      clock: opts.clock,
      clockStart: opts.clockStart,
      logLevel: opts.logLevel,
      importOnStart: opts.importOnStart,
      exportOnExit: opts.exportOnExit,
    },
  });
}

const start = dataOptions(program.command('start').description('start the admin listener and every selected service'))
  .option('--host <host>', 'address to listen on (default: 127.0.0.1)')
  .option('--port-base <port>', 'admin port; service ports follow it (default: 4400)', intArg)
  .addOption(new Option('--clock <mode>', 'system time, or manual time moved through the admin API').choices(['system', 'manual']))
  .option('--clock-start <time>', 'start of manual time (RFC 3339)')
  .option('--pid-file <file>', 'write the process id to this file at start; removed at exit')
  .option('--import-on-start <file>', 'import this archive before the listeners start (test fixtures)')
  .option('--export-on-exit <file>', 'export the state to this archive on shutdown (written atomically)')
  .option('--no-parent-watch', 'keep running after the process that started this one exits');
for (const id of ['admin', ...SERVICE_IDS]) start.option(`--port-${id} <port>`, `port of ${id}`, intArg);

start.action(async (opts) => {
  const config = configFrom(opts);
  if (opts.pidFile) writePidFile(opts.pidFile);
  if (config.importOnStart) await importArchiveFile(config, config.importOnStart);
  // Slow loading (the entity graph, the book catalog) waits until the program is up, then runs behind the listeners.
  const releaseWarmUps = holdWarmUps();
  const rt = await startFromConfig(config);
  const exportTo = config.exportOnExit;
  if (exportTo) rt.beforeDatabaseClose(async () => void (await exportToFile(rt, exportTo)));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      console.error(`\n${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    console.error(`\n${signal}: finishing in-flight requests (up to ${config.shutdownGraceMs} ms)...`);
    const deadline = setTimeout(() => {
      console.error('shutdown deadline passed: exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    deadline.unref();
    rt.close().then(
      () => process.exit(0),
      (err) => {
        console.error(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // Wrappers such as `npm start` do not pass their SIGTERM on: when the parent is gone, stop as if signalled.
  if (opts.parentWatch) {
    watchParent(() => {
      // Its pipes may have closed with it: a failed write must not cut the shutdown short.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
      stop('parent process exited');
    });
  }
  // Printed once the signal handlers are in place: a script may signal as soon as it reads the table.
  console.log(`twinstack is running (database: ${rt.db.describe}, clock: ${rt.clock.mode})\n`);
  console.log(await startTable(rt));
  console.log('\nPress Ctrl+C to stop.');
  releaseWarmUps();
  void whenWarm([...rt.services.values()].map((s) => s.ctx)).then(collectLoadingGarbage, () => undefined);
});

dataOptions(program.command('reset').description('delete the data of every selected service (or all) and restore defaults')).action(async (opts) => {
  const config = configFrom(opts);
  const rt = await startFromConfig(config, { listen: false });
  try {
    const done = config.only.length ? (await Promise.all(config.only.map((id) => rt.reset(id as never)))).flat() : await rt.reset();
    console.log(`reset: ${done.join(', ')}`);
  } finally {
    await rt.close();
  }
});

/** A progress bar on stderr for a long data command (cli-progress draws it only on a terminal). */
function progressBar(label: string): { update(done: number, total: number): void; stop(): void } {
  const bar = new cliProgress.SingleBar({ format: `${label} [{bar}] {percentage}% {value}/{total}`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}

/** Imports an archive into the configured database with the services it holds (or those of --only), then closes. */
async function importArchiveFile(config: Config, file: string): Promise<void> {
  const only = config.only.length ? config.only : (await readManifest(file)).services;
  const rt = await startFromConfig({ ...config, only }, { listen: false });
  const bar = progressBar('importing');
  try {
    const s = await importFromFile(rt, file, { services: only as ImportSummary['services'], onProgress: bar.update });
    bar.stop();
    console.error(`imported ${s.services.join(', ')} from ${file} (${s.rows} rows, ${s.blobs} blobs, ${s.files} files; exported from ${s.source.dialect} at ${s.source.createdAt})`);
  } finally {
    bar.stop();
    await rt.close();
  }
}

dataOptions(program.command('export').description('write the state of every selected service (or all) to one archive file'))
  .argument('<file>', "archive to write (gzip'd JSON lines)")
  .action(async (file: string, opts) => {
    const config = configFrom(opts);
    const rt = await startFromConfig(config, { listen: false });
    const bar = progressBar('exporting');
    try {
      // --only makes a partial archive; without it, everything this instance runs (config `only` included).
      const services = opts.only ? (config.only as ImportSummary['services']) : undefined;
      const manifest = await exportToFile(rt, file, { services, onProgress: bar.update });
      bar.stop();
      const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
      console.log(`exported ${manifest.services.join(', ')} to ${file} (${rows} rows, ${manifest.content.blobs} blobs, ${manifest.files.length} files)`);
    } finally {
      bar.stop();
      await rt.close();
    }
  });

dataOptions(program.command('import').description('replace the state of the services in an archive (or of --only) with its contents'))
  .argument('<file>', 'archive made by `twinstack export` or GET /archive')
  .action(async (file: string, opts) => importArchiveFile(configFrom(opts), file));

// Service data commands: `twinstack <service> <command>`, on the configured database, without listeners.
for (const manifest of SERVICES) {
  if (!manifest.commands) continue;
  const group = dataOptions(program.command(manifest.id).description(`${manifest.title}: data commands`));
  manifest.commands(group, async () => {
    const config = configFrom({ ...group.opts(), only: manifest.id });
    const rt = await startFromConfig(config, { listen: false });
    return { ctx: rt.services.get(manifest.id)!.ctx, close: () => rt.close() };
  });
}

program.parseAsync(process.argv).catch((err) => {
  if (err instanceof ConfigError) console.error(`twinstack: ${err.message}`);
  else console.error(`twinstack: ${(err as Error).message}`);
  process.exit(2);
});
