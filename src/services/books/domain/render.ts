// books#volume and books#bookshelf as the wire shows them.
import { createHash } from 'node:crypto';
import type { CatalogVolume } from './catalog-volume.ts';
import type { ShelfAccess, ShelfKind } from './shelves.ts';

export interface UserInfo {
  isPurchased: boolean;
  isPreordered: boolean;
  isInMyBooks: boolean;
  /** When the volume last went onto one of the user's shelves. */
  updated?: string;
}

export interface RenderOptions {
  baseUrl: string;
  projection: 'full' | 'lite';
  userInfo?: UserInfo;
}

const iso = (ms: number) => new Date(ms).toISOString();

// The fields Books' discovery document marks "(In LITE projection)" in volumeInfo, saleInfo, accessInfo and userInfo
// (saleInfo's prices are marked too, but no volume of the catalog has one).
const LITE_INFO = ['title', 'subtitle', 'authors', 'publisher', 'publishedDate', 'description', 'imageLinks', 'contentVersion', 'infoLink', 'canonicalVolumeLink'] as const;
const LITE_SALE = ['country', 'buyLink'] as const;
const LITE_ACCESS = ['country', 'accessViewStatus', 'epub', 'pdf'] as const;
const LITE_USER = ['isPurchased', 'isPreordered'] as const;

const pick = <T extends object>(from: T, keys: readonly (keyof T)[]): Partial<T> => {
  const out: Partial<T> = {};
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
};

export function renderVolume(v: CatalogVolume, o: RenderOptions): Record<string, unknown> {
  const parts = { volumeInfo: v.volumeInfo, saleInfo: v.saleInfo, accessInfo: v.accessInfo };
  const head = {
    kind: 'books#volume',
    id: v.id,
    etag: createHash('sha1').update(JSON.stringify(parts)).digest('base64').slice(0, 11),
    selfLink: `${o.baseUrl}/books/v1/volumes/${v.id}`,
  };
  if (o.projection === 'lite') {
    const userInfo = o.userInfo ? { userInfo: pick(o.userInfo, LITE_USER) } : {};
    return { ...head, volumeInfo: pick(v.volumeInfo, LITE_INFO), saleInfo: pick(v.saleInfo, LITE_SALE), accessInfo: pick(v.accessInfo, LITE_ACCESS), ...userInfo };
  }
  return { ...head, ...parts, ...(o.userInfo ? { userInfo: o.userInfo } : {}) };
}

export function userInfoOf(addedAt: number | undefined): UserInfo {
  return { isPurchased: false, isPreordered: false, isInMyBooks: addedAt !== undefined, ...(addedAt !== undefined ? { updated: iso(addedAt) } : {}) };
}

export interface ShelfView {
  shelf: ShelfKind;
  access: ShelfAccess;
  created: number;
  updated: number;
  volumeCount: number;
  volumesLastUpdated: number;
}

export function renderShelf(s: ShelfView, selfLink: string): Record<string, unknown> {
  return {
    kind: 'books#bookshelf',
    id: s.shelf.id,
    selfLink,
    title: s.shelf.title,
    access: s.access,
    created: iso(s.created),
    updated: iso(s.updated),
    volumeCount: s.volumeCount,
    volumesLastUpdated: iso(s.volumesLastUpdated),
  };
}
