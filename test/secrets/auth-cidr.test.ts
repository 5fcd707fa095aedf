// Pure tests of CIDR bindings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressAllowed, checkCidrs } from '../../src/services/secrets/auth/cidr.ts';
import { SecretsError } from '../../src/services/secrets/contract.ts';

describe('CIDR bindings', () => {
  it('matches IPv4, IPv6, mapped addresses and single hosts', () => {
    assert.equal(addressAllowed('10.1.2.3', []), true);
    assert.equal(addressAllowed('10.1.2.3', ['10.0.0.0/8']), true);
    assert.equal(addressAllowed('11.1.2.3', ['10.0.0.0/8']), false);
    assert.equal(addressAllowed('::ffff:127.0.0.1', ['127.0.0.1']), true);
    assert.equal(addressAllowed('::1', ['::1/128']), true);
    assert.equal(addressAllowed('::1', ['10.0.0.0/8']), false);
    assert.equal(addressAllowed('', ['10.0.0.0/8']), false);
  });

  it('refuses malformed blocks', () => {
    assert.deepEqual(checkCidrs('x', ['10.0.0.0/8', '::1']), ['10.0.0.0/8', '::1']);
    for (const bad of ['10.0.0.0/33', 'host', '10.0.0.0/x', '::1/129']) {
      assert.throws(() => checkCidrs('token_bound_cidrs', [bad]), (err: unknown) => err instanceof SecretsError && err.status === 400);
    }
  });
});
