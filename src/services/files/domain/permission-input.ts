// The writable fields of a Permission in an insert, update or patch body.
import { invalidValue, requiredValue } from '../errors.ts';
import { isGranteeType, storedRole, type GranteeType, type Role } from './roles.ts';

export interface PermissionInput {
  type?: GranteeType;
  role?: Role;
  value?: string;
  withLink?: boolean;
  expiresAt?: number | null;
}

const EMAIL = /^[^\s@]{1,64}@[A-Za-z0-9.-]{1,255}\.[A-Za-z]{2,63}$|^[^\s@]{1,64}@[A-Za-z0-9-]{1,63}$/;
const DOMAIN = /^(?=.{1,253}$)[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+$/;

export const isEmail = (v: string): boolean => EMAIL.test(v);

export function readPermissionInput(body: Record<string, unknown>, insert: boolean, now: number): PermissionInput {
  const out: PermissionInput = {};
  if (body.type !== undefined) {
    if (!isGranteeType(body.type)) throw invalidValue('type', `Invalid permission type: ${String(body.type)}`);
    out.type = body.type;
  } else if (insert) throw requiredValue('type', 'Permission type is required.');
  if (body.role !== undefined) {
    const role = typeof body.role === 'string' ? storedRole(body.role, body.additionalRoles) : undefined;
    if (!role) throw invalidValue('role', `Invalid permission role: ${String(body.role)}`);
    out.role = role;
  } else if (insert) throw requiredValue('role', 'Permission role is required.');
  else if (body.additionalRoles !== undefined) {
    if (!Array.isArray(body.additionalRoles)) throw invalidValue('additionalRoles');
    if (body.additionalRoles.includes('commenter')) out.role = 'commenter';
  }
  const value = body.value ?? body.emailAddress ?? (out.type === 'domain' ? body.domain : undefined);
  if (value !== undefined && value !== null) {
    if (typeof value !== 'string' || value.length > 320) throw invalidValue('value', 'Invalid permission value.');
    out.value = value.trim().toLowerCase();
  }
  if (insert && out.type !== 'anyone') {
    if (!out.value) throw requiredValue('value', `A ${out.type} permission needs a value (an e-mail address or a domain).`);
    if ((out.type === 'user' || out.type === 'group') && !isEmail(out.value)) throw invalidValue('value', `Invalid e-mail address: ${out.value}`);
    if (out.type === 'domain' && !DOMAIN.test(out.value)) throw invalidValue('value', `Invalid domain: ${out.value}`);
  }
  if (body.withLink !== undefined) {
    if (typeof body.withLink !== 'boolean') throw invalidValue('withLink');
    out.withLink = body.withLink;
  }
  if (body.expirationDate !== undefined && body.expirationDate !== null) {
    const ms = typeof body.expirationDate === 'string' ? Date.parse(body.expirationDate) : NaN;
    if (Number.isNaN(ms)) throw invalidValue('expirationDate', 'Invalid expirationDate.');
    if (ms <= now) throw invalidValue('expirationDate', 'The expiration date must be in the future.', 'invalidExpirationDate');
    if (ms > now + 366 * 86_400_000) throw invalidValue('expirationDate', 'The expiration date cannot be more than a year in the future.', 'invalidExpirationDate');
    out.expiresAt = ms;
  }
  return out;
}
