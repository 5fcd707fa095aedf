import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, portOf } from '../../src/config.ts';

describe('configuration', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'twinstack-config-'));

  it('has working defaults', () => {
    const c = loadConfig({ env: {}, cwd });
    assert.equal(c.dataDir, join(cwd, '.twinstack'));
    assert.equal(portOf(c, 'admin'), 4400);
    assert.equal(portOf(c, 'secrets'), 4401);
    assert.equal(portOf(c, 'calendar'), 4409);
    assert.equal(c.clock, 'system');
  });

  it('takes flags over environment over file over defaults', () => {
    const file = join(cwd, 'custom.json');
    writeFileSync(file, JSON.stringify({ portBase: 5000, host: '0.0.0.0', logLevel: 'info', ports: { bidding: 6002 } }));
    const c = loadConfig({
      env: { TWINSTACK_CONFIG: file, TWINSTACK_PORT_BASE: '5100', TWINSTACK_LOG_LEVEL: 'debug', TWINSTACK_PORT_FILES: '6007' },
      flags: { logLevel: 'error' },
      cwd,
    });
    assert.equal(c.portBase, 5100);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.logLevel, 'error');
    assert.equal(portOf(c, 'bidding'), 6002);
    assert.equal(portOf(c, 'files'), 6007);
    assert.equal(portOf(c, 'payments'), 5105);
  });

  it('reads --only as a list and checks the ids', () => {
    assert.deepEqual(loadConfig({ env: {}, cwd, flags: { only: 'secrets, payments' } }).only, ['secrets', 'payments']);
    assert.throws(() => loadConfig({ env: {}, cwd, flags: { only: 'secrets,mail' } }), /unknown service id "mail"/);
  });

  it('explains every invalid value at once', () => {
    try {
      loadConfig({ env: { TWINSTACK_PORT_BASE: '70000', TWINSTACK_CLOCK: 'sundial' }, cwd });
      assert.fail('expected a ConfigError');
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /\/portBase/);
      assert.match(err.message, /\/clock/);
    }
    assert.throws(() => loadConfig({ env: { TWINSTACK_PORT_BASE: 'abc' }, cwd }), /portBase/);
    assert.throws(() => loadConfig({ env: { TWINSTACK_CONFIG: join(cwd, 'missing.json') }, cwd }), /cannot read config file/);
    assert.throws(() => loadConfig({ env: {}, cwd, flags: { ports: { mail: 1 } } }), /unknown service id "mail"/);
  });
});
