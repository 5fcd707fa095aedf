// A volume of the catalog as it is stored: the books#volume parts that do not depend on the caller, plus the
// identifiers that `isbn:`, `lccn:` and `oclc:` look up.
import type { CatalogSource } from './volume-id.ts';

export interface IndustryIdentifier {
  type: 'ISBN_10' | 'ISBN_13' | 'ISSN' | 'OTHER';
  identifier: string;
}

export interface VolumeInfo {
  title: string;
  subtitle?: string;
  authors?: string[];
  publisher?: string;
  publishedDate?: string;
  description?: string;
  industryIdentifiers?: IndustryIdentifier[];
  readingModes: { text: boolean; image: boolean };
  pageCount?: number;
  printType: 'BOOK' | 'MAGAZINE';
  categories?: string[];
  mainCategory?: string;
  maturityRating: 'NOT_MATURE' | 'MATURE';
  allowAnonLogging: boolean;
  contentVersion: string;
  imageLinks?: { smallThumbnail?: string; thumbnail?: string };
  language: string;
  previewLink?: string;
  infoLink?: string;
  canonicalVolumeLink?: string;
}

export interface SaleInfo {
  country: string;
  saleability: 'FOR_SALE' | 'FREE' | 'NOT_FOR_SALE' | 'FOR_PREORDER';
  isEbook: boolean;
  buyLink?: string;
}

export interface DownloadFormat {
  isAvailable: boolean;
  downloadLink?: string;
}

export interface AccessInfo {
  country: string;
  viewability: 'PARTIAL' | 'ALL_PAGES' | 'NO_PAGES' | 'UNKNOWN';
  embeddable: boolean;
  publicDomain: boolean;
  textToSpeechPermission: 'ALLOWED' | 'ALLOWED_FOR_ACCESSIBILITY' | 'NOT_ALLOWED';
  epub: DownloadFormat;
  pdf: DownloadFormat;
  webReaderLink?: string;
  accessViewStatus: 'FULL_PURCHASED' | 'FULL_PUBLIC_DOMAIN' | 'SAMPLE' | 'NONE';
  quoteSharingAllowed: boolean;
}

export type LookupKind = 'isbn' | 'lccn' | 'oclc';

export interface CatalogVolume {
  id: string;
  source: CatalogSource;
  /** The record's key at its source (an ebook number, an Open Library key). */
  sourceKey: string;
  volumeInfo: VolumeInfo;
  saleInfo: SaleInfo;
  accessInfo: AccessInfo;
  lookups: Array<{ kind: LookupKind; value: string }>;
}

/** The columns that search filters and orders by, derived from the volume. */
export interface SearchFacts {
  language: string;
  published: string;
  printType: string;
  publicDomain: boolean;
  viewability: string;
  saleability: string;
  isEbook: boolean;
  epub: boolean;
}

export function searchFacts(v: CatalogVolume): SearchFacts {
  return {
    language: v.volumeInfo.language,
    published: v.volumeInfo.publishedDate ?? '',
    printType: v.volumeInfo.printType,
    publicDomain: v.accessInfo.publicDomain,
    viewability: v.accessInfo.viewability,
    saleability: v.saleInfo.saleability,
    isEbook: v.saleInfo.isEbook,
    epub: v.accessInfo.epub.isAvailable,
  };
}

/** The text of each full-text field (see the store's index). */
export function searchText(v: CatalogVolume): Record<'title' | 'authors' | 'publisher' | 'subjects', string> {
  const i = v.volumeInfo;
  return {
    title: [i.title, i.subtitle].filter(Boolean).join(' '),
    authors: (i.authors ?? []).join('; '),
    publisher: i.publisher ?? '',
    subjects: (i.categories ?? []).join('; '),
  };
}

/** Identifier forms the lookups compare: ISBNs and LCCNs without separators, OCLC numbers without leading zeros. */
export function normaliseLookup(kind: LookupKind, value: string): string {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  if (kind === 'oclc') return compact.replace(/^(OCM|OCN|ON)/, '').replace(/^0+(?=\d)/, '');
  return compact;
}

/**
 * The values an identifier look-up matches. An ISBN-10 and the 978 ISBN-13 made from it name the same book, and a
 * record often lists only one of them (Open Library editions before 2007 carry ISBN-10s alone), so `isbn:` finds a
 * volume by either spelling; a number whose check digit is wrong has no twin.
 */
export function lookupValues(kind: LookupKind, value: string): string[] {
  if (kind !== 'isbn') return [value];
  const twin = /^\d{9}[\dX]$/.test(value) ? isbn13Of(value) : /^978\d{10}$/.test(value) ? isbn10Of(value) : undefined;
  return twin ? [value, twin] : [value];
}

const digits = (text: string) => [...text].map((c) => (c === 'X' ? 10 : Number(c)));
const isbn10Check = (first9: string) => {
  const r = (11 - (digits(first9).reduce((sum, d, i) => sum + d * (10 - i), 0) % 11)) % 11;
  return r === 10 ? 'X' : String(r);
};
const isbn13Check = (first12: string) => String((10 - (digits(first12).reduce((sum, d, i) => sum + d * (i % 2 ? 3 : 1), 0) % 10)) % 10);

function isbn13Of(isbn10: string): string | undefined {
  if (isbn10Check(isbn10.slice(0, 9)) !== isbn10[9]) return undefined;
  const first12 = `978${isbn10.slice(0, 9)}`;
  return first12 + isbn13Check(first12);
}

function isbn10Of(isbn13: string): string | undefined {
  if (isbn13Check(isbn13.slice(0, 12)) !== isbn13[12]) return undefined;
  const first9 = isbn13.slice(3, 12);
  return first9 + isbn10Check(first9);
}

/** Text limits every record is held to, whatever its source. */
export const LIMITS = { title: 1000, subtitle: 1000, name: 300, authors: 50, categories: 100, category: 300, description: 20_000, identifier: 64 };
