// An acknowledged write survives kill -9: many concurrent writers (so that group commit folds them into shared
// commits), the process killed while writes are in flight, then every acknowledged write read back. Trials:
// DURABILITY_TRIALS (2 in the regular suite; `npm run test:durability` runs 20).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Runtime, loopbackOptions } from '../../src/core/runtime.ts';
import { manifestOf } from '../../src/services/index.ts';
import { testDatabase } from '../helpers/database.ts';
import { DATABASES, call } from '../helpers/runtime.ts';
import { ROOT } from './helpers.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const TRIALS = Number(process.env.DURABILITY_TRIALS ?? 2);
const WRITERS = 24;
/** Acknowledged writes to wait for before the kill, so that it lands while others are in flight. */
const KILL_AFTER = 60;

for (const database of DATABASES) {
  describe(`secrets after an unclean kill (${database})`, () => {
    for (let trial = 1; trial <= TRIALS; trial++) {
      it(`trial ${trial}: every acknowledged write is read back after SIGKILL`, async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'secrets-kill-'));
        const tdb = testDatabase(database);
        const databaseUrl = database === 'sqlite' ? join(dataDir, 'kill.db') : tdb.url;
        try {
          const acknowledged = await writeUntilKilled(dataDir, databaseUrl);
          assert.ok(acknowledged.length >= KILL_AFTER);
          const rt = await Runtime.start(loopbackOptions(dataDir, databaseUrl, { settings: { secrets: { devRootToken: ROOT } } }), [manifestOf('secrets')]);
          try {
            const base = rt.services.get('secrets')!.url;
            for (const key of acknowledged) {
              const res = await call(`${base}/v1/secret/data/${key}`, { headers: { 'x-secrets-token': ROOT } });
              assert.equal(res.status, 200, `acknowledged write ${key} lost`);
              assert.deepEqual(res.body.data.data, { key });
            }
          } finally {
            await rt.close();
          }
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
          await tdb.dispose();
        }
      });
    }
  });
}

/** Starts the service in a child, writes from many writers until enough are acknowledged, kills it; the acked keys. */
async function writeUntilKilled(dataDir: string, databaseUrl: string): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures/serve-secrets.ts'), dataDir, databaseUrl, ROOT], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
  const acknowledged: string[] = [];
  let killed = false;
  const writer = async (w: number) => {
    for (let i = 0; !killed; i++) {
      const key = `w${w}-${i}`;
      try {
        const res = await call(`${url}/v1/secret/data/${key}`, { body: { data: { key } }, headers: { 'x-secrets-token': ROOT } });
        if (res.status === 200) acknowledged.push(key);
      } catch {
        return; // the connection died with the process: this write was never acknowledged
      }
      if (acknowledged.length >= KILL_AFTER && !killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  await exited;
  return acknowledged;
}
