// ACL scopes: the rule id of each scope, what a scope in a request body may hold, the highest role each scope type may
// grant, and a user's effective role on a calendar: the highest of their own rule, the rules of their groups, the
// public rule (`default`) and the rule of their e-mail domain.
import { isDomainName, isEmail, obj, only, str } from './check.ts';
import { badRequest, notFound, requiredField } from './errors.ts';

export const ROLE_RANK: Record<string, number> = { none: 0, freeBusyReader: 1, reader: 2, writer: 3, owner: 4 };

export type ScopeType = 'user' | 'group' | 'domain' | 'default';

/** A rule's scope; the public scope's value is the empty string (it has none). */
export interface Scope {
  type: ScopeType;
  value: string;
}

/** A rule as far as access goes: its scope and role (`none` for a tombstone). */
export interface Grant {
  scopeType: string;
  scopeValue: string;
  role: string;
}

/**
 * Calendar shares publicly at freeBusyReader or reader only; a whole domain may write but never own (our bound); a
 * group may be given any role, as Calendar's sharing settings allow ("make changes and manage sharing").
 */
const HIGHEST_ROLE: Record<ScopeType, string> = { user: 'owner', group: 'owner', domain: 'writer', default: 'reader' };

/** Who a rule may apply to: a user's address and the addresses of their groups (lower-cased). */
export interface Member {
  email: string;
  groups: readonly string[];
}

export const listedRole = (role: string | undefined): boolean => ROLE_RANK[role ?? 'none'] >= ROLE_RANK.freeBusyReader;

export const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

/** The scopes whose rules apply to a user. */
export const scopesOf = (member: Member): Scope[] => [
  { type: 'user', value: member.email },
  ...member.groups.map((group): Scope => ({ type: 'group', value: group })),
  { type: 'domain', value: domainOf(member.email) },
  { type: 'default', value: '' },
];

export const ruleIdOf = (s: Grant): string => (s.scopeType === 'default' ? 'default' : `${s.scopeType}:${s.scopeValue}`);

export const renderScope = (s: Grant): { type: string; value?: string } => (s.scopeType === 'default' ? { type: 'default' } : { type: s.scopeType, value: s.scopeValue });

/** The scope a rule id names; an id of no scope type (anything malformed) names no rule: 404. */
export function parseRuleId(ruleId: string): Scope {
  if (ruleId === 'default') return { type: 'default', value: '' };
  const colon = ruleId.indexOf(':');
  const type = ruleId.slice(0, colon);
  if (colon <= 0 || (type !== 'user' && type !== 'group' && type !== 'domain')) throw notFound();
  return { type, value: ruleId.slice(colon + 1).toLowerCase() };
}

/** The `scope` of a request body. */
export function readScope(raw: unknown): Scope {
  const scope = obj(raw, 'scope');
  only(scope, ['type', 'value'], 'scope');
  if (scope.type === undefined || scope.type === null || scope.type === '') throw requiredField('Missing scope type.', 'scope.type');
  if (scope.type !== 'user' && scope.type !== 'group' && scope.type !== 'domain' && scope.type !== 'default') throw badRequest(`Invalid scope type: ${JSON.stringify(scope.type)}`, 'scope.type');
  const given = scope.value !== undefined && scope.value !== null && scope.value !== '';
  if (scope.type === 'default') {
    if (given) throw badRequest('A rule of scope type default has no scope value.', 'scope.value');
    return { type: 'default', value: '' };
  }
  if (!given) throw requiredField('Missing scope value.', 'scope.value');
  const value = str(scope.value, 'scope.value', 254).toLowerCase();
  if (!(scope.type === 'domain' ? isDomainName(value) : isEmail(value))) throw badRequest(`Invalid scope value: ${value}`, 'scope.value');
  return { type: scope.type, value };
}

/** Refuses a role above what the scope type may grant. */
export function checkRoleOfScope(scope: Scope, role: string): void {
  if (ROLE_RANK[role] <= ROLE_RANK[HIGHEST_ROLE[scope.type]]) return;
  const message =
    scope.type === 'default'
      ? 'A public rule (scope type default) can only grant the role freeBusyReader or reader.'
      : 'A rule of scope type domain can grant at most the role writer.';
  throw badRequest(message, 'role');
}

export const sameScope = (a: Grant, b: Grant): boolean => a.scopeType === b.scopeType && a.scopeValue === b.scopeValue;

/** The live rules among `rules` that apply to a user. */
export function grantsFor<T extends Grant>(rules: readonly T[], member: Member): T[] {
  const scopes = scopesOf(member);
  return rules.filter((r) => r.role !== 'none' && scopes.some((s) => s.type === r.scopeType && s.value === r.scopeValue));
}

/** The highest role of the rules that apply to a user (`none` without any). */
export function effectiveRole(grants: readonly Grant[]): string {
  let best = 'none';
  for (const g of grants) if (ROLE_RANK[g.role] > ROLE_RANK[best]) best = g.role;
  return best;
}

/** Whether a user's own rule puts the calendar on their list by itself (group, public and domain rules do not). */
export const directlyShared = (grants: readonly Grant[]): boolean => grants.some((g) => g.scopeType === 'user' && listedRole(g.role));

/**
 * Whether a calendar someone else owns is on a user's list: shared with them by their own rule, or added with
 * calendarList.insert (`added`) while any rule still lets them see it.
 */
export const onList = (grants: readonly Grant[], added: boolean): boolean => directlyShared(grants) || (added && listedRole(effectiveRole(grants)));
