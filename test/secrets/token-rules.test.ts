// Pure tests of the token rules: policy choice, orphan and sudo rules, TTL capping, periods and renewal.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SecretsError } from '../../src/services/secrets/contract.ts';
import { decodeCreateRequest, planTokenCreate, type CreateContext } from '../../src/services/secrets/token/create-rules.ts';
import { namespaceIdOf, newAccessor, newTokenId, type TokenEntry } from '../../src/services/secrets/token/entry.ts';
import { planRenew } from '../../src/services/secrets/token/renew-rules.ts';
import { tokenEntry } from './token-fixtures.ts';
import { calculateTtl, limitsOf, SYSTEM_MAX_TTL } from '../../src/services/secrets/token/ttl.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const HOUR = 3600;

const entry = (over: Partial<TokenEntry> = {}): TokenEntry => tokenEntry(NOW, over);

const root = entry({ policies: ['root'], expireTime: null, creationTtl: 0, renewable: false });

function plan(data: Record<string, unknown>, over: Partial<CreateContext> = {}) {
  return planTokenCreate(decodeCreateRequest(data), {
    parent: entry(),
    isSudo: false,
    orphanEndpoint: false,
    now: NOW,
    limits: limitsOf(),
    namespaceId: 'root',
    relativePath: 'create',
    ...over,
  });
}

const rejects = (fn: () => unknown, message: string) =>
  assert.throws(fn, (err: unknown) => err instanceof SecretsError && err.status === 400 && err.message === message);

describe('token creation rules', () => {
  it('inherits the parent policies, adds default, sorts and lower-cases', () => {
    assert.deepEqual(plan({}).entry.policies, ['default', 'dev']);
    assert.deepEqual(plan({ policies: 'Dev' }).entry.policies, ['default', 'dev']);
    assert.deepEqual(plan({ policies: ['dev'], no_default_policy: true }).entry.policies, ['dev']);
    assert.deepEqual(plan({ policies: ['b', 'A'] }, { parent: root, isSudo: true }).entry.policies, ['a', 'b', 'default']);
    assert.deepEqual(plan({ policies: ['root', 'x'] }, { parent: root, isSudo: true }).entry.policies, ['root']);
  });

  it('refuses policies outside the parent unless sudo', () => {
    rejects(() => plan({ policies: ['admin'] }), 'child policies must be subset of parent');
    assert.deepEqual(plan({ policies: ['admin'] }, { isSudo: true }).entry.policies, ['admin', 'default']);
    rejects(() => plan({ policies: ['root'] }, { isSudo: true }), 'root tokens may not be created without parent token being root');
  });

  it('makes orphans only through create-orphan, roles or sudo', () => {
    assert.equal(plan({}).entry.parentHash, 'parent-hash');
    assert.equal(plan({}, { orphanEndpoint: true }).entry.parentHash, null);
    rejects(() => plan({ no_parent: true }), 'root or sudo privileges required to create orphan token');
    assert.equal(plan({ no_parent: 'true' }, { isSudo: true }).entry.parentHash, null);
  });

  it('guards periodic tokens, custom ids and limited-use parents', () => {
    rejects(() => plan({ period: '1h' }), 'root or sudo privileges required to create periodic token');
    rejects(() => plan({ id: 'mine' }), 'root or sudo privileges required to specify token id');
    rejects(() => plan({ id: 'a.b' }, { parent: root, isSudo: true }), 'token IDs can not contain a "."');
    rejects(() => plan({}, { parent: entry({ numUses: 2 }) }), 'restricted use token cannot generate child tokens');
    rejects(() => plan({ num_uses: -1 }), 'number of uses cannot be negative');
    const p = plan({ period: '2h', ttl: '10h' }, { isSudo: true });
    assert.equal(p.entry.creationTtl, 2 * HOUR);
    assert.equal(p.entry.period, 2 * HOUR);
  });

  it('caps TTLs at the system maximum and explicit max TTL, with warnings', () => {
    const noTtl = plan({});
    assert.equal(noTtl.entry.creationTtl, SYSTEM_MAX_TTL);
    const big = plan({ ttl: '1000h' });
    assert.equal(big.entry.creationTtl, SYSTEM_MAX_TTL);
    assert.match(big.warnings[0], /TTL of "1000h0m0s" exceeded the effective max_ttl of "768h0m0s"/);
    assert.equal(plan({ ttl: '5h', explicit_max_ttl: '2h' }).entry.creationTtl, 2 * HOUR);
    assert.equal(plan({ ttl: 90 }).entry.expireTime, NOW + 90_000);
    assert.equal(plan({ ttl: '5h' }, { limits: limitsOf({ max_lease_ttl: HOUR }) }).entry.creationTtl, HOUR);
  });

  it('lets only non-expiring roots create non-expiring root tokens', () => {
    const r = plan({ policies: ['root'] }, { parent: root, isSudo: true });
    assert.equal(r.entry.expireTime, null);
    assert.equal(r.entry.renewable, false);
    const expiringRoot = entry({ policies: ['root'] });
    rejects(() => plan({ policies: ['root'] }, { parent: expiringRoot, isSudo: true }), 'expiring root tokens cannot create non-expiring root tokens');
  });

  it('creates tokens for a child namespace only with sudo, never root ones', () => {
    rejects(() => plan({ policies: ['dev'] }, { namespaceId: 'ns1' }), 'root or sudo privileges required to directly generate a token in a child namespace');
    rejects(() => plan({ policies: ['root'] }, { namespaceId: 'ns1', parent: root, isSudo: true }), 'root tokens may not be created from a parent namespace');
    const p = plan({ policies: ['team'] }, { namespaceId: 'ns1', parent: root, isSudo: true });
    assert.deepEqual(p.entry.policies, ['default', 'team']);
    assert.equal(p.entry.namespaceId, 'ns1');
  });

  it('makes batch tokens without renewal, uses, periods or root', () => {
    const p = plan({ type: 'batch', policies: ['dev'] });
    assert.equal(p.entry.type, 'batch');
    assert.equal(p.entry.renewable, false);
    rejects(() => plan({ type: 'batch', num_uses: 2 }), 'batch tokens cannot have "num_uses" set');
    rejects(() => plan({ type: 'batch', explicit_max_ttl: '1h' }), 'batch tokens cannot have "explicit_max_ttl" set');
    rejects(() => plan({ type: 'batch' }, { parent: root, isSudo: true }), 'batch tokens cannot be root tokens');
    rejects(() => plan({}, { parent: entry({ type: 'batch' }) }), 'batch tokens cannot create more tokens');
  });

  it('applies role allowed and disallowed policies', () => {
    const role = {
      name: 'r',
      allowedPolicies: ['a', 'b'],
      disallowedPolicies: [],
      allowedPoliciesGlob: [],
      disallowedPoliciesGlob: [],
      boundCidrs: ['10.0.0.0/8'],
      orphan: true,
      renewable: false,
      pathSuffix: 'v1',
      period: 0,
      explicitMaxTtl: 0,
      tokenType: 'default-service',
      noDefaultPolicy: false,
      numUses: 0,
    };
    const p = plan({}, { role, relativePath: 'create/r' });
    assert.deepEqual(p.entry.policies, ['a', 'b', 'default']);
    assert.equal(p.entry.parentHash, null);
    assert.equal(p.entry.renewable, false);
    assert.equal(p.entry.path, 'auth/token/create/r/v1');
    assert.deepEqual(p.entry.boundCidrs, ['10.0.0.0/8']);
    assert.throws(() => plan({ policies: ['c'] }, { role }), /must be subset of the role's allowed policies/);
    assert.throws(() => plan({ policies: ['dev'] }, { role: { ...role, allowedPolicies: [], disallowedPolicies: ['dev'] } }), /token policy "dev" is disallowed by this role/);
    const globbed = { ...role, allowedPolicies: [], allowedPoliciesGlob: ['team-*'], disallowedPoliciesGlob: ['*-admin'] };
    assert.deepEqual(plan({ policies: ['team-a'] }, { role: globbed }).entry.policies, ['default', 'team-a']);
    assert.throws(() => plan({ policies: ['other'] }, { role: globbed }), /must be subset of the role's allowed policies/);
    assert.throws(() => plan({ policies: ['team-admin'] }, { role: globbed }), /token policy "team-admin" is disallowed by this role/);
    assert.deepEqual(plan({}, { parent: entry({ boundCidrs: ['127.0.0.1'] }) }).entry.boundCidrs, ['127.0.0.1'], 'children keep the binding');
  });
});

describe('TTL and renewal', () => {
  it('property: a computed TTL never passes the effective maximum', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(5_000_000), fc.nat(5_000_000), fc.nat(1_000_000), (requested, maxTtl, explicitMax, elapsed) => {
        const limits = limitsOf({ max_lease_ttl: maxTtl });
        const issuedAt = NOW;
        const now = NOW + elapsed * 1000;
        const cap = Math.min(limits.maxTtl, explicitMax || Infinity) - elapsed;
        try {
          const { ttl } = calculateTtl({ limits, now, issuedAt, requestedTtl: requested, explicitMaxTtl: explicitMax });
          assert.ok(ttl <= cap && ttl > 0);
        } catch (err) {
          assert.ok(err instanceof SecretsError && cap <= 0);
        }
      }),
    );
  });

  it('renews from now, capped by max TTL from issue; refuses the unrenewable', () => {
    const e = entry({ creationTtl: HOUR, expireTime: NOW + HOUR * 1000 });
    const later = NOW + 30 * 60_000;
    const r = planRenew(e, { now: later, increment: 0, limits: limitsOf() });
    assert.equal(r.ttl, HOUR);
    assert.equal(r.expireTime, later + HOUR * 1000);
    assert.equal(planRenew(e, { now: later, increment: 7200, limits: limitsOf({ max_lease_ttl: HOUR }) }).ttl, 1800);
    assert.equal(planRenew({ ...e, explicitMaxTtl: 2400 }, { now: later, increment: 7200, limits: limitsOf() }).ttl, 600);
    assert.throws(() => planRenew({ ...e, renewable: false }, { now: later, increment: 0, limits: limitsOf() }), /lease is not renewable/);
    assert.throws(() => planRenew(root, { now: later, increment: 0, limits: limitsOf() }), /lease is not renewable/);
    assert.throws(() => planRenew(e, { now: NOW + 2 * HOUR * 1000, increment: 0, limits: limitsOf() }), /lease expired/);
    const periodic = entry({ period: 600, creationTtl: 600, expireTime: NOW + 600_000 });
    assert.equal(planRenew(periodic, { now: NOW + 500_000, increment: 99_999, limits: limitsOf() }).ttl, 600);
  });

  it('formats ids and accessors with the namespace suffix', () => {
    const id = newTokenId('root');
    assert.match(id, /^hvs\.[0-9A-Za-z]{24}$/);
    assert.equal(namespaceIdOf(id), 'root');
    assert.equal(namespaceIdOf(newTokenId('Ab12c')), 'Ab12c');
    assert.equal(namespaceIdOf(newAccessor('Ab12c')), 'Ab12c');
    assert.equal(namespaceIdOf(newAccessor('root')), 'root');
    assert.equal(namespaceIdOf('root'), 'root');
  });

  it('reads the namespace suffix of any token or accessor text by its dots', () => {
    // The rule by parts: a prefixed token (hvs., hvb., s., b.) names a namespace by a third part, anything else by a
    // second; without one it is the root namespace.
    const byParts = (text: string) => {
      const parts = text.split('.');
      const needed = /^(hvs|hvb|s|b)\./.test(text) ? 3 : 2;
      return parts.length >= needed ? parts[parts.length - 1] : 'root';
    };
    const piece = fc.oneof(fc.constantFrom('hvs', 'hvb', 's', 'b', '', 'ns1', 'Ab12c', 'x'), fc.string({ maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), (pieces) => {
        const text = pieces.join('.');
        assert.equal(namespaceIdOf(text), byParts(text), JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
  });
});
