import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Runtime, loopbackOptions } from '../../src/core/runtime.ts';
import { manifestOf } from '../../src/services/index.ts';
import { DEV_API_KEY, DEV_TOKEN, type TestRuntime } from '../helpers/runtime.ts';
import { raw, startFiles } from './helpers.ts';

// Two instances on one PostgreSQL database: content lives in the database, so each serves what the other stored.
describe('files on two instances sharing PostgreSQL', { skip: !process.env.TWINSTACK_TEST_DATABASE_URL }, () => {
  let t: TestRuntime;
  let second: Runtime;
  let secondDir: string;
  before(async () => {
    t = await startFiles('postgres');
    secondDir = mkdtempSync(join(tmpdir(), 'twinstack-second-'));
    second = await Runtime.start(
      loopbackOptions(secondDir, t.rt.options.databaseUrl, {
        masterKey: readFileSync(join(t.dataDir, 'master.key'), 'utf8').trim(),
        logger: pino({ level: 'silent' }),
        devApiKey: DEV_API_KEY,
        devToken: DEV_TOKEN,
      }),
      [manifestOf('files')],
    );
  });
  after(async () => {
    await second.close();
    rmSync(secondDir, { recursive: true, force: true });
    await t.close();
  });

  it('downloads on one instance what the other stored, and continues its resumable upload', async () => {
    const other = second.services.get('files')!.url;
    const up = await raw(t, '/upload/storage/v2/files?uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'stored on the first' });
    const file = await up.json();
    const down = await fetch(`${other}/storage/v2/files/${file.id}?alt=media`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } });
    assert.equal(await down.text(), 'stored on the first');
    const init = await raw(t, '/upload/storage/v2/files?uploadType=resumable', { method: 'POST', headers: { 'x-upload-content-type': 'text/plain', 'x-upload-content-length': '6' } });
    const session = new URL(init.headers.get('location')!);
    const first = await fetch(session, { method: 'PUT', headers: { 'content-range': 'bytes 0-2/6' }, body: 'abc' });
    assert.equal(first.status, 308);
    const onSecond = `${other}${session.pathname}${session.search}`;
    const last = await fetch(onSecond, { method: 'PUT', headers: { 'content-range': 'bytes 3-5/6' }, body: 'def' });
    assert.equal(last.status, 200);
    const done = await last.json();
    const back = await raw(t, `/storage/v2/files/${done.id}?alt=media`);
    assert.equal(await back.text(), 'abcdef');
  });
});
