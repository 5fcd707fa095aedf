// A start that cannot listen says which listener and setting chose the taken port, and leaves nothing behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const BIN = join(import.meta.dirname, '../../bin/twinstack.js');

describe('a port already in use', () => {
  const parent = mkdtempSync(join(tmpdir(), 'twinstack-ports-'));
  let taken: Server;
  let port: number;

  before(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  after(() => {
    taken.close();
    rmSync(parent, { recursive: true, force: true });
  });

  it('names the service and its flag, exits 2, and creates no data directory', () => {
    const dataDir = join(parent, 'data');
    const res = spawnSync(process.execPath, [BIN, 'start', '--data-dir', dataDir, '--only', 'secrets', '--port-admin', '0', '--port-secrets', String(port)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(res.status, 2, res.stderr);
    assert.match(res.stderr, new RegExp(`port ${port} on 127\\.0\\.0\\.1, chosen for secrets, is already in use`));
    assert.match(res.stderr, /--port-secrets/);
    assert.equal(existsSync(dataDir), false);
  });

  it('names the admin listener when its port is the one taken', () => {
    const dataDir = join(parent, 'admin-data');
    const res = spawnSync(process.execPath, [BIN, 'start', '--data-dir', dataDir, '--only', 'secrets', '--port-admin', String(port), '--port-secrets', '0'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(res.status, 2, res.stderr);
    assert.match(res.stderr, /chosen for admin/);
    assert.match(res.stderr, /--port-admin/);
    assert.equal(existsSync(dataDir), false);
  });
});
