// `orderBy` of files.list: a comma list of keys, each optionally followed by `desc`.
import { invalidValue } from '../errors.ts';

export const ORDER_KEYS = [
  'createdDate',
  'folder',
  'lastViewedByMeDate',
  'modifiedByMeDate',
  'modifiedDate',
  'quotaBytesUsed',
  'recency',
  'sharedWithMeDate',
  'starred',
  'title',
  'title_natural',
] as const;
export type OrderKey = (typeof ORDER_KEYS)[number];

export interface OrderTerm {
  key: OrderKey;
  desc: boolean;
}

export function parseOrderBy(raw: string | undefined): OrderTerm[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const words = part.trim().split(/\s+/);
    const key = words[0] as OrderKey;
    const dir = words[1]?.toLowerCase();
    if (!ORDER_KEYS.includes(key) || words.length > 2 || (dir !== undefined && dir !== 'desc' && dir !== 'asc')) {
      throw invalidValue('orderBy', `Invalid orderBy: ${part.trim()}`);
    }
    return { key, desc: dir === 'desc' };
  });
}
