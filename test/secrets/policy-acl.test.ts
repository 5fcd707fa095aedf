// Pure tests of the policy parser and the ACL evaluator: examples from the precedence rules and properties.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Acl } from '../../src/services/secrets/policy/acl.ts';
import { DEFAULT_POLICY_RULES, DEFAULT_POLICY_TEXT, RESPONSE_WRAPPING_POLICY_RULES, RESPONSE_WRAPPING_POLICY_TEXT } from '../../src/services/secrets/policy/builtin.ts';
import { parsePolicyText, PolicyParseError } from '../../src/services/secrets/policy/parse.ts';
import { comparePriority, compilePattern, patternMatches } from '../../src/services/secrets/policy/path-pattern.ts';
import type { Capability, PathRule } from '../../src/services/secrets/policy/policy.ts';

const acl = (...rules: Array<[string, Capability[]]>) => new Acl([{ name: 'p', rules: rules.map(([pattern, capabilities]) => ({ pattern, capabilities })) }]);

describe('policy parser', () => {
  it('reads HCL with repeated paths, legacy policy, parameters and TTLs', async () => {
    const rules = await parsePolicyText(`
      path "/secret/data/*" { capabilities = ["read", "list"] }
      path "secret/data/*" { capabilities = ["update"] }
      path "sys/+/x" {
        policy = "write"
        allowed_parameters = { "foo" = [], "*" = ["a"] }
        required_parameters = ["Foo"]
        min_wrapping_ttl = "1m"
        max_wrapping_ttl = 3600
      }`);
    assert.equal(rules.length, 3);
    assert.deepEqual(rules[0], { pattern: 'secret/data/*', capabilities: ['read', 'list'] });
    assert.deepEqual(rules[2].capabilities, ['create', 'read', 'update', 'delete', 'list']);
    assert.deepEqual({ ...rules[2].allowedParameters }, { foo: [], '*': ['a'] }); // a prototype-free map: compare its entries
    assert.deepEqual(rules[2].requiredParameters, ['foo']);
    assert.equal(rules[2].minWrappingTtl, 60);
    assert.equal(rules[2].maxWrappingTtl, 3600);
  });

  it('reads JSON documents', async () => {
    const rules = await parsePolicyText('{"path":{"a/*":{"capabilities":["deny","read"]},"b":{"policy":"read"}}}');
    assert.deepEqual(rules, [
      { pattern: 'a/*', capabilities: ['deny'] },
      { pattern: 'b', capabilities: ['read', 'list'] },
    ]);
  });

  it('seeds the default policy with exactly the rules its text parses to', async () => {
    assert.deepEqual(await parsePolicyText(DEFAULT_POLICY_TEXT), DEFAULT_POLICY_RULES);
  });

  it('gives wrapping tokens exactly the rules the response-wrapping text parses to', async () => {
    assert.deepEqual(await parsePolicyText(RESPONSE_WRAPPING_POLICY_TEXT), RESPONSE_WRAPPING_POLICY_RULES);
  });

  it('parses the default policy', async () => {
    const rules = await parsePolicyText(DEFAULT_POLICY_TEXT);
    assert.ok(rules.some((r) => r.pattern === 'auth/token/lookup-self' && r.capabilities.includes('read')));
    assert.ok(rules.some((r) => r.pattern === 'cubbyhole/*'));
  });

  for (const [text, fragment] of [
    ['path "a" { capabilities = [ ', ''],
    ['path "a" { capabilities = ["fly"] }', 'invalid capability "fly"'],
    ['path "a" { policy = "all" }', 'invalid policy "all"'],
    ['path "a" { colour = "red" }', 'invalid key "colour"'],
    ['pathx "a" { capabilities = ["read"] }', 'invalid key "pathx"'],
    ['path "a/+*" { capabilities = ["read"] }', "'+*' is forbidden"],
    ['{"path": ', 'invalid JSON'],
    ['path "a" { capabilities = "read" }', 'must be a list'],
  ] as const) {
    it(`rejects ${JSON.stringify(text)}`, async () => {
      await assert.rejects(parsePolicyText(text), (err: unknown) => err instanceof PolicyParseError && err.message.includes(fragment));
    });
  }
});

describe('path patterns', () => {
  it('matches globs and segment wildcards', () => {
    const cases: Array<[string, string, boolean]> = [
      ['secret/zip-*', 'secret/zip-zap/zong', true],
      ['secret/zip-*', 'secret/zi', false],
      ['secret/+/teamb', 'secret/a/teamb', true],
      ['secret/+/teamb', 'secret/a/b/teamb', false],
      ['secret/+/teamb', 'secret/teamb', false],
      ['secret/+/foo*', 'secret/x/foobar/baz', true],
      ['secret/+/foo*', 'secret/x/fo', false],
      ['+/data', 'kv/data', true],
      ['secret/a', 'secret/a', true],
      ['secret/a', 'secret/a/', false],
    ];
    for (const [pattern, path, want] of cases) assert.equal(patternMatches(compilePattern(pattern), path), want, `${pattern} ~ ${path}`);
  });

  it('applies the five precedence rules', () => {
    const higher = (a: string, b: string) => assert.ok(comparePriority(compilePattern(a), compilePattern(b)) > 0, `${a} > ${b}`);
    higher('secret/a/+', 'secret/+/b'); // 1: later first wildcard
    higher('secret/+/b', 'secret/+/b*'); // 2: not ending in *
    higher('secret/+/b/c', 'secret/+/+/c'); // 3: fewer + segments
    higher('secret/abc*', 'secret/ab*'); // 1 (later glob) also covers longer prefixes
    higher('secret/+/bc', 'secret/+/b'); // 4: longer
    higher('secret/+/c', 'secret/+/b'); // 5: lexicographically larger
    higher('secret/a', 'secret/a*'); // exact beats any glob
  });

  it('orders patterns totally and consistently', () => {
    const seg = fc.constantFrom('a', 'b', 'ab', '+', 'c');
    const pattern = fc.tuple(fc.array(seg, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([s, glob]) => s.join('/') + (glob ? '*' : ''))
      .filter((p) => !p.includes('+*'));
    fc.assert(
      fc.property(pattern, pattern, pattern, (a, b, c) => {
        const [pa, pb, pc] = [a, b, c].map(compilePattern);
        assert.equal(Math.sign(comparePriority(pa, pb)) + Math.sign(comparePriority(pb, pa)), 0);
        if (comparePriority(pa, pb) > 0 && comparePriority(pb, pc) > 0) assert.ok(comparePriority(pa, pc) > 0);
        if (a !== b) assert.notEqual(comparePriority(pa, pb), 0);
      }),
    );
  });
});

describe('ACL evaluation', () => {
  it('uses only the highest-priority matching rule', () => {
    const a = acl(['secret/*', ['read', 'list', 'update']], ['secret/private/*', ['deny']], ['secret/private/open', ['read']]);
    assert.equal(a.evaluate('secret/x', 'update').allowed, true);
    assert.equal(a.evaluate('secret/private/x', 'read').allowed, false);
    assert.equal(a.evaluate('secret/private/open', 'read').allowed, true);
    assert.equal(a.evaluate('secret/private/open', 'update').allowed, false, 'no union with secret/*');
    assert.equal(a.evaluate('other', 'read').allowed, false);
  });

  it('needs list paths to end in / and sudo on root-protected paths', () => {
    const a = acl(['secret/metadata/*', ['list']], ['secret/metadata/app', ['list']], ['sys/auth/*', ['create', 'update']], ['sys/audit/*', ['update', 'sudo']]);
    assert.equal(a.evaluate('secret/metadata/', 'list').allowed, true);
    assert.equal(a.evaluate('secret/metadata/app/', 'list').allowed, true, 'covered by the glob');
    const b = acl(['secret/metadata/app', ['list']], ['+/teams', ['list']], ['kv/*', ['read']], ['kv/x', ['deny']]);
    assert.equal(b.evaluate('secret/metadata/app/', 'list').allowed, true, 'a rule without the slash counts for LIST');
    assert.equal(b.evaluate('ns/teams/', 'list').allowed, true, 'wildcard rules too');
    assert.equal(b.evaluate('secret/metadata/app', 'read').allowed, false);
    assert.equal(b.evaluate('kv/x/', 'list').allowed, false, 'the exact rule without the slash (deny) comes before the glob');
    assert.equal(a.evaluate('sys/auth/up', 'update', { rootProtected: true }).allowed, false);
    assert.equal(a.evaluate('sys/audit/file', 'update', { rootProtected: true }).allowed, true);
  });

  it('unites capabilities of the same pattern across policies, deny sticky', () => {
    const p1 = { name: 'one', rules: [{ pattern: 'kv/*', capabilities: ['read'] as Capability[] }] };
    const p2 = { name: 'two', rules: [{ pattern: 'kv/*', capabilities: ['update'] as Capability[] }] };
    const p3 = { name: 'three', rules: [{ pattern: 'kv/*', capabilities: ['deny'] as Capability[] }] };
    assert.deepEqual(new Acl([p1, p2]).capabilities('kv/x'), ['read', 'update']);
    assert.deepEqual(new Acl([p1, p2, p3]).capabilities('kv/x'), ['deny']);
    assert.deepEqual(new Acl([{ name: 'root', rules: [] }]).capabilities('anything'), ['root']);
    assert.deepEqual(new Acl([]).capabilities('anything'), ['deny']);
  });

  it('checks allowed, denied and required parameters', () => {
    const rule: PathRule = {
      pattern: 'kv/+',
      capabilities: ['create', 'update'],
      allowedParameters: { colour: ['red', 'bl*'], size: [] },
      deniedParameters: { size: ['huge'] },
      requiredParameters: ['colour'],
    };
    const a = new Acl([{ name: 'p', rules: [rule] }]);
    const ok = (data: Record<string, unknown>) => a.evaluate('kv/x', 'create', { data }).allowed;
    assert.equal(ok({ colour: 'red' }), true);
    assert.equal(ok({ colour: 'blue', size: 3 }), true);
    assert.equal(ok({ colour: 'green' }), false);
    assert.equal(ok({ colour: 'red', size: 'huge' }), false);
    assert.equal(ok({ size: 1 }), false, 'colour is required');
    assert.equal(ok({ colour: 'red', shape: 'x' }), false, 'shape is not allowed');
    assert.equal(a.evaluate('kv/x', 'delete', { data: {} }).allowed, false, 'delete not granted');
  });

  it('finds access anywhere under a mount', () => {
    const a = acl(['secret/data/app/*', ['read']], ['kv/+/x', ['list']], ['other/exact', ['update']], ['nope/*', ['deny']]);
    assert.equal(a.hasAccessUnder('secret/'), true);
    assert.equal(a.hasAccessUnder('secret/data/app/deep/'), true);
    assert.equal(a.hasAccessUnder('secret/metadata/'), false);
    assert.equal(a.hasAccessUnder('kv/'), true);
    assert.equal(a.hasAccessUnder('kv/a/'), true);
    assert.equal(a.hasAccessUnder('kv/a/y/'), false);
    assert.equal(a.hasAccessUnder('other/'), true);
    assert.equal(a.hasAccessUnder('nope/'), false);
    assert.equal(a.hasAccessUnder('elsewhere/'), false);
    assert.equal(new Acl([{ name: 'root', rules: [] }]).hasAccessUnder('x/'), true);
  });

  it('property: access under a prefix agrees with some matching path', () => {
    const seg = fc.constantFrom('a', 'b', 'ab');
    const pattern = fc.tuple(fc.array(fc.oneof(seg, fc.constant('+')), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([s, glob]) => s.join('/') + (glob ? '*' : ''));
    const path = fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(pattern, path, fc.nat(3), (pat, p, cut) => {
        const a = acl([pat, ['read']]);
        const prefix = p.split('/').slice(0, Math.max(1, p.split('/').length - cut)).join('/') + '/';
        // a witness: the path itself matched and lies under the prefix means access must be found
        if (p.startsWith(prefix) && a.evaluate(p, 'read').allowed) assert.equal(a.hasAccessUnder(prefix), true);
      }),
    );
  });

  it('property: deny on the governing pattern refuses every operation', () => {
    const ops = ['create', 'read', 'update', 'patch', 'delete', 'list', 'help'] as const;
    const caps = fc.subarray(['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo'] as Capability[]);
    fc.assert(
      fc.property(caps, fc.constantFrom(...ops), fc.stringMatching(/^[a-z]{1,5}$/), (granted, op, leaf) => {
        const a = new Acl([
          { name: 'a', rules: [{ pattern: 'kv/*', capabilities: granted }] },
          { name: 'b', rules: [{ pattern: 'kv/*', capabilities: ['deny'] }] },
        ]);
        assert.equal(a.evaluate(`kv/${leaf}`, op).allowed, false);
      }),
    );
  });

  it('property: an exact rule governs its path whatever wildcard rules exist', () => {
    const caps = fc.subarray(['create', 'read', 'update', 'delete', 'list'] as Capability[], { minLength: 1 });
    fc.assert(
      fc.property(caps, caps, fc.constantFrom('kv/*', 'kv/+', '+/x', 'k*'), (exactCaps, wildCaps, wild) => {
        const a = acl(['kv/x', exactCaps], [wild, wildCaps]);
        assert.deepEqual(a.capabilities('kv/x'), [...exactCaps].sort());
      }),
    );
  });
});
