// State export and import through the admin API and the CLI: state written through six services' HTTP APIs moves
// from SQLite to the other database and back, answering the same and with every table's digest unchanged; an archive
// made under another master key is refused with nothing changed; --import-on-start and --export-on-exit.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { buildAdmin } from '../../src/admin/index.ts';
import { archiveDigest } from '../../src/core/archive/index.ts';
import { Vault } from '../../src/core/crypto.ts';
import { Runtime, loopbackOptions } from '../../src/core/runtime.ts';
import type { ServiceId } from '../../src/core/service.ts';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { manifestOf } from '../../src/services/index.ts';
import { DEV_API_KEY, DEV_TOKEN, call } from '../helpers/runtime.ts';

const BIN = new URL('../../bin/twinstack.js', import.meta.url).pathname;
const MASTER_KEY = randomBytes(32).toString('hex');
const SERVICES: ServiceId[] = ['secrets', 'errorreporting', 'payments', 'files', 'books', 'calendar'];
const CLOCK_START = '2026-03-10T12:00:00.000Z';
const ROOT_TOKEN = 'archive-root-token';
const LICENCE = 'ARCHIVELICENCE01';
const SETTINGS = { secrets: { devRootToken: ROOT_TOKEN }, payments: { dev_licence_key: LICENCE }, books: { catalog: 'sample' } };
/** The other database: PostgreSQL when the suite has one, else a second SQLite file. */
const OTHER: 'sqlite' | 'postgres' = process.env.TWINSTACK_TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const work = mkdtempSync(join(tmpdir(), 'twinstack-archive-'));
const schemas: string[] = [];

interface Instance {
  rt: Runtime;
  dataDir: string;
  databaseUrl: string;
  url(id: ServiceId): string;
}

function newStore(kind: 'sqlite' | 'postgres'): { dataDir: string; databaseUrl: string } {
  const dataDir = mkdtempSync(join(work, 'data-'));
  if (kind === 'sqlite') return { dataDir, databaseUrl: join(dataDir, 'twinstack.db') };
  const schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  schemas.push(schema);
  const url = new URL(process.env.TWINSTACK_TEST_DATABASE_URL!);
  url.searchParams.set('schema', schema);
  return { dataDir, databaseUrl: url.toString() };
}

async function boot(store: { dataDir: string; databaseUrl: string }, masterKey = MASTER_KEY, services = SERVICES): Promise<Instance> {
  const options = loopbackOptions(store.dataDir, store.databaseUrl, {
    masterKey,
    devApiKey: DEV_API_KEY,
    devToken: DEV_TOKEN,
    clock: 'manual',
    clockStart: Date.parse(CLOCK_START),
    settings: SETTINGS,
    logger: pino({ level: 'silent' }),
  });
  const rt = await Runtime.start(options, services.map(manifestOf), buildAdmin);
  return { rt, ...store, url: (id) => rt.services.get(id)!.url };
}

/** The CLI with this suite's key, credentials and service settings. */
function cli(args: string[], store: { dataDir: string; databaseUrl: string }, masterKey = MASTER_KEY) {
  const config = join(work, 'twinstack.config.json');
  writeFileSync(config, JSON.stringify({ services: SETTINGS, clock: 'manual', clockStart: CLOCK_START }));
  const env = { ...process.env, TWINSTACK_MASTER_KEY: masterKey, TWINSTACK_DEV_API_KEY: DEV_API_KEY, TWINSTACK_DEV_TOKEN: DEV_TOKEN, TWINSTACK_LOG_LEVEL: 'silent', TWINSTACK_ONLY: SERVICES.join(',') };
  const common = ['--config', config, '--data-dir', store.dataDir, '--database', store.databaseUrl];
  return { env, argv: [BIN, args[0], ...common, ...args.slice(1)] };
}

function runCli(args: string[], store: { dataDir: string; databaseUrl: string }, masterKey = MASTER_KEY) {
  const { env, argv } = cli(args, store, masterKey);
  return spawnSync(process.execPath, argv, { encoding: 'utf8', env, timeout: 120_000 });
}

const bearer = { authorization: `Bearer ${DEV_TOKEN}` };
const payKey = (i: Instance) => makeApiKey('DEV001', LICENCE, randomBytes(16), i.rt.clock.now());

/** Writes state through each service's HTTP API; returns the ids the reads need. */
async function writeState(i: Instance): Promise<Record<string, string | number>> {
  const secret = await call(`${i.url('secrets')}/v1/secret/data/app/db`, { body: { data: { password: 's3cr3t', user: 'app' } }, headers: { 'x-secrets-token': ROOT_TOKEN } });
  assert.equal(secret.status, 200, secret.text);
  const report = await call(`${i.url('errorreporting')}/v1beta1/projects/archive-project/events:report?key=${DEV_API_KEY}`, {
    body: { serviceContext: { service: 'web', version: 'v1' }, message: 'TypeError: boom\n    at handler (/app/index.js:10:5)', eventTime: '2026-03-10T11:30:00Z' },
  });
  assert.equal(report.status, 200, report.text);
  const payment = await call(`${i.url('payments')}/v6/authorise`, {
    body: { amount: 1500, cardnumber: '4000000000000002', expmonth: 12, expyear: 2030, identifier: 'archive-order-1', merchantid: 10001, csc: '012' },
    headers: { 'pay-api-key': payKey(i) },
  });
  assert.equal(payment.status, 200, payment.text);
  const uploaded = await fetch(`${i.url('files')}/upload/storage/v2/files?uploadType=media`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/octet-stream' },
    body: Buffer.from(Array.from({ length: 300_000 }, (_, n) => (n * 7) % 256)),
  });
  assert.equal(uploaded.status, 200);
  const event = await call(`${i.url('calendar')}/calendar/v3/calendars/primary/events`, {
    body: { summary: 'Archive review', start: { dateTime: '2026-03-11T10:00:00Z' }, end: { dateTime: '2026-03-11T11:00:00Z' } },
    headers: bearer,
  });
  assert.equal(event.status, 200, event.text);
  return { file: ((await uploaded.json()) as { id: string }).id, event: event.body.id, transno: payment.body.AuthResponse?.transno ?? payment.body.transno };
}

/** Links in answers name the listener that gave them: each base URL becomes `<service>`. */
function withoutBaseUrls<T>(value: T, urls: Array<[string, string]>): T {
  let text = JSON.stringify(value);
  for (const [id, url] of urls) text = text.split(url).join(`<${id}>`);
  return JSON.parse(text) as T;
}

/** What each service answers about that state. */
async function readAnswers(i: Instance, ids: Record<string, string | number>) {
  const content = await fetch(`${i.url('files')}/storage/v2/files/${ids.file}?alt=media`, { headers: bearer });
  const answers = {
    secret: (await call(`${i.url('secrets')}/v1/secret/data/app/db`, { headers: { 'x-secrets-token': ROOT_TOKEN } })).body?.data,
    errors: (await call(`${i.url('errorreporting')}/v1beta1/projects/archive-project/groupStats`, { headers: bearer })).body,
    payment: (await call(`${i.url('payments')}/v6/retrieve`, { body: { merchantid: 10001, transno: ids.transno }, headers: { 'pay-api-key': payKey(i) } })).body,
    file: (await call(`${i.url('files')}/storage/v2/files/${ids.file}`, { headers: bearer })).body,
    content: content.status === 200 ? Buffer.from(await content.arrayBuffer()).toString('base64') : content.status,
    event: (await call(`${i.url('calendar')}/calendar/v3/calendars/primary/events/${ids.event}`, { headers: bearer })).body,
    books: (await call(`${i.url('books')}/books/v1/volumes?q=daguerreotype&key=${DEV_API_KEY}`)).body,
  };
  // Relevance ranks ties differently on the two databases; the matches are the same.
  answers.books.items?.sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id));
  return withoutBaseUrls(answers, SERVICES.map((id) => [id, i.url(id)]));
}

const digestOf = (file: string) => archiveDigest(createReadStream(file), new Vault(Buffer.from(MASTER_KEY, 'hex')));

async function download(i: Instance, file: string, query = ''): Promise<void> {
  const res = await fetch(`${i.rt.admin!.url}/archive${query}`);
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'application/gzip');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
}

const upload = (i: Instance, file: string, query = '') =>
  call(`${i.rt.admin!.url}/archive${query}`, { method: 'POST', raw: readFileSync(file) as unknown as string, headers: { 'content-type': 'application/gzip' } });

after(async () => {
  rmSync(work, { recursive: true, force: true });
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: process.env.TWINSTACK_TEST_DATABASE_URL });
  await client.connect();
  for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await client.end();
});

describe(`state export and import (sqlite and ${OTHER})`, () => {
  let source: Instance;
  let ids: Record<string, string | number>;
  let answers: Awaited<ReturnType<typeof readAnswers>>;
  const first = join(work, 'first.jsonl.gz');

  before(async () => {
    source = await boot(newStore('sqlite'));
    ids = await writeState(source);
    answers = await readAnswers(source, ids);
    await download(source, first);
  });
  after(async () => source.rt.close());

  it('reads back what was written before moving anything', () => {
    assert.equal(answers.secret.data.password, 's3cr3t');
    assert.equal(answers.content, Buffer.from(Array.from({ length: 300_000 }, (_, n) => (n * 7) % 256)).toString('base64'));
    assert.equal(answers.event.summary, 'Archive review');
    assert.ok(answers.books.totalItems > 0, 'the full-text search finds the volumes');
  });

  it(`moves the state to ${OTHER} through the admin API and back to SQLite through the CLI, answering the same`, async () => {
    const exported = await digestOf(first);
    assert.ok(Object.keys(exported).some((k) => k.startsWith('content:')), 'the file content is in the archive');
    assert.ok('file:secrets/secrets-dev.json' in exported, 'the dev unseal key travels with the secrets');
    const text = gunzipSync(readFileSync(first)).toString('utf8');
    for (const plain of ['s3cr3t', ROOT_TOKEN, '4000000000000002', LICENCE]) assert.ok(!text.includes(plain), `${plain} is not in the archive in clear`);

    const otherStore = newStore(OTHER);
    const other = await boot(otherStore);
    let answersThere = answers;
    try {
      const res = await upload(other, first);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.imported.services, SERVICES);
      assert.equal(res.body.imported.source.dialect, 'sqlite');
      // Exported again before any read: a payments call records its nonce.
      const second = join(work, 'second.jsonl.gz');
      await download(other, second);
      assert.deepEqual(await digestOf(second), exported);
      assert.deepEqual(await readAnswers(other, ids), answers);
      // New rows after an import take fresh ids (PostgreSQL sequences were moved past the imported ones).
      const again = await call(`${other.url('errorreporting')}/v1beta1/projects/archive-project/events:report?key=${DEV_API_KEY}`, {
        body: { serviceContext: { service: 'web', version: 'v1' }, message: 'TypeError: boom\n    at handler (/app/index.js:10:5)', eventTime: '2026-03-10T11:45:00Z' },
      });
      assert.equal(again.status, 200, again.text);
      answersThere = await readAnswers(other, ids);
      assert.equal(answersThere.errors.errorGroupStats[0].count, '2');
    } finally {
      await other.rt.close();
    }

    // Back through the CLI: export from the other database, import into a fresh SQLite store.
    const third = join(work, 'third.jsonl.gz');
    const out = runCli(['export', third], otherStore);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /exported secrets, errorreporting, payments, files, books, calendar to/);
    // The state changed there (a second error event, payment nonces): from here it is the one just exported.
    const exportedAgain = await digestOf(third);
    const backStore = newStore('sqlite');
    const imported = runCli(['import', third], backStore);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stderr, new RegExp(`imported secrets, errorreporting, payments, files, books, calendar from .* exported from ${OTHER}`));
    const back = await boot(backStore);
    try {
      const fourth = join(work, 'fourth.jsonl.gz');
      await download(back, fourth);
      assert.deepEqual(await digestOf(fourth), exportedAgain);
      assert.deepEqual(await readAnswers(back, ids), answersThere);
    } finally {
      await back.rt.close();
    }
  });

  it('refuses an archive made under another master key and changes nothing', async () => {
    const store = newStore('sqlite');
    const strangerKey = randomBytes(32).toString('hex');
    const stranger = await boot(store, strangerKey);
    try {
      const mine = await writeState(stranger);
      const before = await readAnswers(stranger, mine);
      const res = await upload(stranger, first);
      assert.equal(res.status, 409);
      assert.match(res.body.error.message, /another master key.*nothing was changed/);
      assert.deepEqual(await readAnswers(stranger, mine), before);
    } finally {
      await stranger.rt.close();
    }
    const cliRes = runCli(['import', first], store, strangerKey);
    assert.equal(cliRes.status, 2);
    assert.match(cliRes.stderr, /another master key/);
  });

  it('imports only the services asked for, leaving the others as they were', async () => {
    const target = await boot(newStore('sqlite'));
    try {
      const mine = await writeState(target);
      const mineBefore = await readAnswers(target, mine);
      const res = await upload(target, first, '?only=calendar,secrets');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.imported.services, ['calendar', 'secrets']);
      const now = await readAnswers(target, mine);
      assert.equal(now.event.error?.code, 404, 'the calendar was replaced');
      assert.deepEqual(now.file, mineBefore.file, 'files were left alone');
      assert.deepEqual(now.content, mineBefore.content);
      const theirs = await readAnswers(target, ids);
      assert.deepEqual(theirs.event, answers.event);
      assert.deepEqual(theirs.secret, answers.secret);
    } finally {
      await target.rt.close();
    }
  });

  it('refuses what is not an archive, a cut-short archive (rolled back whole), and a service the archive lacks', async () => {
    const target = await boot(newStore('sqlite'), MASTER_KEY, ['calendar']);
    try {
      const events = `${target.url('calendar')}/calendar/v3/calendars/primary/events`;
      const mine = await call(events, { body: { summary: 'Kept', start: { dateTime: '2026-03-12T10:00:00Z' }, end: { dateTime: '2026-03-12T11:00:00Z' } }, headers: bearer });
      assert.equal(mine.status, 200, mine.text);
      const junk = join(work, 'junk.gz');
      writeFileSync(junk, 'not gzip at all');
      assert.equal((await upload(target, junk)).status, 400);
      const cut = join(work, 'cut.gz');
      const whole = readFileSync(first);
      writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
      const res = await upload(target, cut, '?only=calendar');
      assert.equal(res.status, 400, res.text);
      assert.equal((await call(`${events}/${mine.body.id}`, { headers: bearer })).body.summary, 'Kept', 'the import was rolled back');
      assert.equal((await call(`${events}/${ids.event}`, { headers: bearer })).status, 404);
      const missing = await upload(target, first, '?only=bidding');
      assert.equal(missing.status, 400);
      assert.match(missing.body.error.message, /bidding is not in the archive/);
      const notRunning = await upload(target, first);
      assert.equal(notRunning.status, 409);
      assert.match(notRunning.body.error.message, /not running here/);
    } finally {
      await target.rt.close();
    }
  });

  it('--import-on-start loads an archive before serving and --export-on-exit writes one atomically on SIGTERM', async () => {
    const store = newStore('sqlite');
    const exitFile = join(work, 'on-exit.jsonl.gz');
    const { env, argv } = cli(['start', '--port-base', '0', '--no-parent-watch', '--import-on-start', first, '--export-on-exit', exitFile], store);
    const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('Press Ctrl+C')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`start exited with ${code}: ${stderr}`)));
    });
    const calendarUrl = /calendar\s+(http:\/\/\S+)/.exec(stdout)![1];
    const event = await call(`${calendarUrl}/calendar/v3/calendars/primary/events/${ids.event}`, { headers: bearer });
    assert.deepEqual(withoutBaseUrls(event.body, [['calendar', calendarUrl]]), answers.event, 'the imported event is served');
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
    assert.ok(existsSync(exitFile));
    assert.deepEqual(readdirSync(work).filter((n) => n.endsWith('.tmp')), [], 'no temporary file is left');
    assert.deepEqual(await digestOf(exitFile), await digestOf(first));
  });
});
