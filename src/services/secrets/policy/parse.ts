// Parses an ACL policy written in HCL or JSON into its normalised rules. HCL goes through a real HCL parser
// (@cdktf/hcl2json); JSON documents are read directly. Every error is a PolicyParseError whose message the sys
// routes answer with `failed to parse policy: <message>`.
import { OffLoop } from '../../../core/off-loop.ts';
import { dictionary, own } from '../../../core/own.ts';
import { parseDurationSeconds } from '../http/fields.ts';
import * as hclJobs from './hcl-jobs.ts';
import { CAPABILITIES, LEGACY_POLICY_CAPABILITIES, type Capability, type ParameterMap, type PathRule } from './policy.ts';

export class PolicyParseError extends Error {}

// HCL is always parsed on the worker: even a one-path policy costs the parser more than a worker's round trip.
const hcl = new OffLoop(new URL('./hcl-jobs.ts', import.meta.url), hclJobs, { errors: [hclJobs.HclSyntaxError] });

const TOP_LEVEL_KEYS = new Set(['name', 'path']);
const PATH_KEYS = new Set([
  'policy',
  'capabilities',
  'allowed_parameters',
  'denied_parameters',
  'required_parameters',
  'min_wrapping_ttl',
  'max_wrapping_ttl',
  'mfa_methods',
  'control_group',
  'comment',
]);

/** Parses policy text (HCL or JSON) into rules in the order written. */
export async function parsePolicyText(text: string): Promise<PathRule[]> {
  const trimmed = text.trim();
  let doc: unknown;
  if (trimmed.startsWith('{')) {
    try {
      doc = JSON.parse(trimmed);
    } catch (err) {
      throw new PolicyParseError(`invalid JSON: ${(err as Error).message}`);
    }
  } else {
    try {
      doc = await hcl.run('parseHcl', ['policy.hcl', text], false);
    } catch (err) {
      // Only the parser's refusal is the caller's fault; a worker that failed is an internal error.
      if (!(err instanceof hclJobs.HclSyntaxError)) throw err;
      throw new PolicyParseError(err.message.replace(/^parse config: /, ''));
    }
  }
  return rulesOf(doc);
}

function rulesOf(doc: unknown): PathRule[] {
  if (!isObject(doc)) throw new PolicyParseError('a policy must be an object');
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_KEYS.has(key)) throw new PolicyParseError(`invalid key "${key}"`);
  }
  const paths = doc.path;
  if (paths === undefined) return [];
  if (!isObject(paths)) throw new PolicyParseError('"path" must be a map of path blocks');
  const rules: PathRule[] = [];
  for (const [rawPattern, body] of Object.entries(paths)) {
    // HCL gives a list of blocks per label (a path may repeat); JSON gives one object or a list of them.
    const blocks = Array.isArray(body) ? body : [body];
    for (const block of blocks) rules.push(ruleOf(rawPattern, block));
  }
  return rules;
}

function ruleOf(rawPattern: string, block: unknown): PathRule {
  const pattern = rawPattern.replace(/^\/+/, '');
  if (!isObject(block)) throw new PolicyParseError(`path "${rawPattern}": a path block must be an object`);
  for (const key of Object.keys(block)) {
    if (!PATH_KEYS.has(key)) throw new PolicyParseError(`path "${rawPattern}": invalid key "${key}"`);
  }
  if (pattern.includes('+*')) throw new PolicyParseError(`path "${rawPattern}": invalid use of wildcards ('+*' is forbidden)`);
  const capabilities = new Set<Capability>();
  if (block.policy !== undefined) {
    const legacy = typeof block.policy === 'string' ? own(LEGACY_POLICY_CAPABILITIES, block.policy) : undefined;
    if (!legacy) throw new PolicyParseError(`path "${rawPattern}": invalid policy "${String(block.policy)}"`);
    legacy.forEach((c) => capabilities.add(c));
  }
  if (block.capabilities !== undefined) {
    if (!Array.isArray(block.capabilities)) throw new PolicyParseError(`path "${rawPattern}": capabilities must be a list`);
    for (const cap of block.capabilities) {
      if (typeof cap !== 'string' || !(CAPABILITIES as readonly string[]).includes(cap)) {
        throw new PolicyParseError(`path "${rawPattern}": invalid capability "${String(cap)}"`);
      }
      capabilities.add(cap as Capability);
    }
  }
  const rule: PathRule = {
    pattern,
    // deny stands alone: nothing else of the block counts
    capabilities: capabilities.has('deny') ? ['deny'] : CAPABILITIES.filter((c) => capabilities.has(c)),
  };
  const allowed = parameterMap(rawPattern, 'allowed_parameters', block.allowed_parameters);
  if (allowed) rule.allowedParameters = allowed;
  const denied = parameterMap(rawPattern, 'denied_parameters', block.denied_parameters);
  if (denied) rule.deniedParameters = denied;
  if (block.required_parameters !== undefined) {
    if (!Array.isArray(block.required_parameters) || block.required_parameters.some((p) => typeof p !== 'string')) {
      throw new PolicyParseError(`path "${rawPattern}": required_parameters must be a list of strings`);
    }
    rule.requiredParameters = block.required_parameters.map((p: string) => p.toLowerCase());
  }
  for (const [key, field] of [['min_wrapping_ttl', 'minWrappingTtl'], ['max_wrapping_ttl', 'maxWrappingTtl']] as const) {
    if (block[key] === undefined) continue;
    try {
      rule[field] = parseDurationSeconds(block[key], key);
    } catch {
      throw new PolicyParseError(`path "${rawPattern}": invalid ${key}`);
    }
  }
  if (rule.minWrappingTtl && rule.maxWrappingTtl && rule.maxWrappingTtl < rule.minWrappingTtl) {
    throw new PolicyParseError(`path "${rawPattern}": max_wrapping_ttl cannot be less than min_wrapping_ttl`);
  }
  return rule;
}

function parameterMap(rawPattern: string, key: string, value: unknown): ParameterMap | undefined {
  if (value === undefined) return undefined;
  // a JSON policy may give the map as a one-element list of maps, as HCL 1's JSON form does for a block
  const map = Array.isArray(value) && value.length === 1 && isObject(value[0]) ? value[0] : value;
  if (!isObject(map)) throw new PolicyParseError(`path "${rawPattern}": ${key} must be a map`);
  // parameter names are the policy author's: `__proto__` must stay an entry, not become the map's prototype
  const out: ParameterMap = dictionary();
  for (const [name, values] of Object.entries(map)) {
    if (!Array.isArray(values)) throw new PolicyParseError(`path "${rawPattern}": ${key}.${name} must be a list`);
    out[name.toLowerCase()] = values;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
