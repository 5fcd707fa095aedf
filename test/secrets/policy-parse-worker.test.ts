// HCL policies are parsed on a worker thread: the parser (Go compiled to WebAssembly) never loads on the event loop
// that every service shares, and what it refuses still comes back as a parse error with the parser's message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePolicyText, PolicyParseError } from '../../src/services/secrets/policy/parse.ts';

describe('policy parsing off the event loop', () => {
  it('parses HCL without loading the parser on this thread', async () => {
    const paths = Array.from({ length: 300 }, (_, i) => `path "secret/data/team-${i}/*" {\n  capabilities = ["read", "list"]\n}\n`).join('');
    const rules = await parsePolicyText(paths);
    assert.equal(rules.length, 300);
    assert.deepEqual(
      rules.find((r) => r.pattern === 'secret/data/team-299/*'),
      { pattern: 'secret/data/team-299/*', capabilities: ['read', 'list'] },
    );
    // The parser's runtime defines these globals in the thread that loads it.
    assert.equal('Go' in globalThis, false);
    assert.equal('__parse_terraform_config_wasm__' in globalThis, false);
  });

  it('reports what the parser refuses as a parse error with its message', async () => {
    await assert.rejects(parsePolicyText('path "a/*" { capabilities = ["read"'), (err: unknown) => {
      assert.ok(err instanceof PolicyParseError, String(err));
      assert.match(err.message, /policy\.hcl:1/);
      assert.doesNotMatch(err.message, /^parse config: /);
      return true;
    });
  });

  it('reads JSON policies in place', async () => {
    assert.deepEqual(await parsePolicyText('{"path": {"kv/*": {"capabilities": ["deny"]}}}'), [{ pattern: 'kv/*', capabilities: ['deny'] }]);
  });
});
