// sys/policy (legacy) and sys/policies/acl: list, read, write and delete ACL policies of the request's namespace.
import { badRequest, notFound, type LogicalRequest, type LogicalResponse, type SystemRoute } from '../contract.ts';
import { stringField } from '../auth/fields.ts';
import type { Access } from '../auth/access.ts';
import { PolicyParseError } from './parse.ts';
import { DEFAULT_POLICY, RESPONSE_WRAPPING_POLICY, ROOT_POLICY } from './policy.ts';

/** Policies no request may write or delete: `root`, and the fixed policy of wrapping tokens. */
const IMMUTABLE_POLICIES = new Set([ROOT_POLICY, RESPONSE_WRAPPING_POLICY]);

/** Policy text may arrive base64-encoded; plain HCL/JSON never decodes to itself cleanly, so try base64 first. */
function decodePolicyText(raw: string): string {
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(raw.trim()) && raw.trim().length % 4 === 0) {
    const decoded = Buffer.from(raw.trim(), 'base64').toString('utf8');
    if (!decoded.includes('\uFFFD')) return decoded;
  }
  return raw;
}

export function policyRoutes(access: () => Access): SystemRoute[] {
  const store = () => access().policies;

  async function write(req: LogicalRequest, rawName: string, legacy: boolean): Promise<LogicalResponse | null> {
    const name = rawName.toLowerCase().trim();
    const warnings: string[] = [];
    if (name !== rawName) warnings.push(`policy name was converted to ${name}`);
    if (IMMUTABLE_POLICIES.has(name)) throw badRequest(`cannot update "${name}" policy`);
    let text = stringField(req.data, 'policy');
    if (text === undefined && legacy && req.data.rules !== undefined) {
      text = stringField(req.data, 'rules');
      warnings.push("'rules' is deprecated, please use 'policy' instead");
    }
    if (!text) throw badRequest("'policy' parameter not supplied or empty");
    try {
      await store().put(req.namespace, name, decodePolicyText(text));
    } catch (err) {
      if (err instanceof PolicyParseError) throw badRequest(`failed to parse policy: ${err.message}`);
      throw err;
    }
    return warnings.length ? { warnings } : null;
  }

  async function remove(req: LogicalRequest, rawName: string): Promise<null> {
    const name = rawName.toLowerCase();
    if (IMMUTABLE_POLICIES.has(name)) throw badRequest(`cannot delete "${name}" policy`);
    if (name === DEFAULT_POLICY) throw badRequest('cannot delete "default" policy');
    await store().delete(req.namespace, name);
    return null;
  }

  /** One named policy: the legacy form reads back `rules` (and mirrors data at the top level), the current `policy`. */
  function namedPolicyRoute(pattern: RegExp, legacy: boolean): SystemRoute {
    return {
      pattern,
      help: '## DESCRIPTION\n\nReads, writes (policy in HCL or JSON, may be base64) or deletes an ACL policy.\n',
      operations: ['read', 'create', 'update', 'delete'],
      exists,
      handle: async (req, m) => {
        if (req.operation === 'delete') return remove(req, m[1]);
        if (req.operation !== 'read') return write(req, m[1], legacy);
        const policy = await store().get(req.namespace, m[1].toLowerCase());
        if (!policy) throw notFound();
        return legacy ? { data: { name: policy.name, rules: policy.text }, topLevelData: true } : { data: { name: policy.name, policy: policy.text } };
      },
    };
  }

  const exists = async (req: LogicalRequest, m: RegExpMatchArray) => (await store().get(req.namespace, m[1].toLowerCase())) !== undefined;

  return [
    {
      pattern: /^policy\/?$/,
      help: '## DESCRIPTION\n\nLists the ACL policies (legacy form).\n',
      operations: ['read', 'list'],
      handle: async (req) => {
        const names = await store().list(req.namespace);
        return { data: { keys: names, policies: names }, topLevelData: true };
      },
    },
    namedPolicyRoute(/^policy\/(.+)$/, true),
    {
      pattern: /^policies\/acl\/?$/,
      help: '## DESCRIPTION\n\nLists the ACL policies.\n',
      operations: ['list'],
      handle: async (req) => {
        const names = await store().list(req.namespace);
        // the listing repeats its keys as `policies`, as the legacy listing does
        return { data: { keys: names, policies: names } };
      },
    },
    namedPolicyRoute(/^policies\/acl\/(.+)$/, false),
  ];
}
