// An Open Library edition or work record (one line of a dump: the JSON alone, or the dump's tab-separated
// "type key revision last_modified JSON" form) as a books#volume. Open Library lists books it does not host, so
// these volumes are catalogue entries: no preview, no download, not for sale here.
import { LIMITS, normaliseLookup, type CatalogVolume, type IndustryIdentifier, type LookupKind } from './catalog-volume.ts';
import { RecordError, checkText } from './record-error.ts';
import { volumeIdOf } from './volume-id.ts';

const SITE = 'https://openlibrary.org';

// MARC language codes Open Library uses, as the two-letter codes Books reports.
const LANGUAGES: Record<string, string> = {
  eng: 'en', fre: 'fr', fra: 'fr', ger: 'de', deu: 'de', spa: 'es', ita: 'it', por: 'pt', rus: 'ru', dut: 'nl', nld: 'nl',
  lat: 'la', swe: 'sv', dan: 'da', nor: 'no', fin: 'fi', pol: 'pl', cze: 'cs', ces: 'cs', hun: 'hu', gre: 'el', ell: 'el',
  heb: 'he', ara: 'ar', chi: 'zh', zho: 'zh', jpn: 'ja', kor: 'ko', hin: 'hi', tur: 'tr', wel: 'cy', cym: 'cy', bul: 'bg',
  ukr: 'uk', rum: 'ro', ron: 'ro', cat: 'ca', ice: 'is', isl: 'is', gle: 'ga', ind: 'id', per: 'fa', fas: 'fa',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "1995", "March 1995", "March 5, 1995", "1995-03-05", "c1995" as YYYY, YYYY-MM or YYYY-MM-DD. */
export function publishedDateOf(text: string): string | undefined {
  const iso = /^(\d{4})(-\d{2})?(-\d{2})?$/.exec(text.trim());
  if (iso) return iso[0];
  const year = /(?<!\d)(\d{4})(?!\d)/.exec(text)?.[1];
  if (!year) return undefined;
  const month = MONTHS.findIndex((m) => new RegExp(`\\b${m}[a-z]*\\.?\\b`, 'i').test(text));
  if (month < 0) return year;
  const mm = String(month + 1).padStart(2, '0');
  const day = /\b(\d{1,2})\b(?!\d)/.exec(text.replace(year, ''))?.[1];
  return day && Number(day) >= 1 && Number(day) <= 31 ? `${year}-${mm}-${day.padStart(2, '0')}` : `${year}-${mm}`;
}

/** The JSON record of a dump line. */
export function parseOpenLibraryLine(line: string): unknown {
  const json = line.includes('\t') ? line.slice(line.lastIndexOf('\t') + 1) : line;
  try {
    return JSON.parse(json);
  } catch {
    throw new RecordError('not a JSON record');
  }
}

const strings = (value: unknown, field: string): string[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new RecordError(`${field} must be a list of strings`);
  return value.map((v: string) => v.trim()).filter(Boolean);
};

const optionalString = (value: unknown, field: string, max: number): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new RecordError(`${field} must be a string`);
  return checkText(value.trim(), field, max) || undefined;
};

function authorNames(r: Record<string, unknown>): string[] {
  const names: string[] = [];
  if (Array.isArray(r.authors)) for (const a of r.authors) if (a && typeof a === 'object' && typeof (a as { name?: unknown }).name === 'string') names.push((a as { name: string }).name);
  names.push(...strings(r.author_name, 'author_name'));
  if (names.length === 0 && typeof r.by_statement === 'string') names.push(r.by_statement.replace(/^by\s+/i, '').replace(/[.;]\s*$/, ''));
  const unique = [...new Set(names.map((n) => n.trim()).filter(Boolean))];
  if (unique.length > LIMITS.authors) throw new RecordError(`more than ${LIMITS.authors} authors`);
  for (const n of unique) checkText(n, 'an author', LIMITS.name);
  return unique;
}

export function openLibraryVolume(value: unknown): CatalogVolume {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new RecordError('a record must be a JSON object');
  // PostgreSQL text cannot hold a NUL character; no record needs one.
  if (JSON.stringify(value).includes('\\u0000')) throw new RecordError('a field holds a NUL character');
  const r = value as Record<string, unknown>;
  const key = r.key;
  if (typeof key !== 'string' || !/^\/(books|works)\/OL\d{1,12}[MW]$/.test(key)) throw new RecordError('key must be an Open Library key such as /books/OL7353617M');
  const title = optionalString(r.title, 'title', LIMITS.title);
  if (!title) throw new RecordError('title is missing');
  const subtitle = optionalString(r.subtitle, 'subtitle', LIMITS.subtitle);
  const description = typeof r.description === 'object' && r.description !== null ? (r.description as { value?: unknown }).value : r.description;
  const publishers = strings(r.publishers, 'publishers');
  const publishDate = optionalString(r.publish_date ?? r.first_publish_date, 'publish_date', 100);
  const subjects = [...new Set(strings(r.subjects, 'subjects'))];
  if (subjects.length > LIMITS.categories) throw new RecordError(`more than ${LIMITS.categories} subjects`);
  for (const s of subjects) checkText(s, 'a subject', LIMITS.category);
  const pages = r.number_of_pages;
  if (pages !== undefined && (!Number.isInteger(pages) || (pages as number) < 1)) throw new RecordError('number_of_pages must be a positive integer');
  const languageKey = Array.isArray(r.languages) ? (r.languages[0] as { key?: unknown } | undefined)?.key : undefined;
  const marc = typeof languageKey === 'string' ? languageKey.replace('/languages/', '') : undefined;
  const cover = Array.isArray(r.covers) ? r.covers.find((c) => Number.isInteger(c) && c > 0) : undefined;

  const identifiers: IndustryIdentifier[] = [];
  const lookups: CatalogVolume['lookups'] = [];
  const add = (kind: LookupKind, type: IndustryIdentifier['type'], list: string[], prefix = '') => {
    for (const raw of list) {
      checkText(raw, kind, LIMITS.identifier);
      identifiers.push({ type, identifier: prefix + raw });
      lookups.push({ kind, value: normaliseLookup(kind, raw) });
    }
  };
  add('isbn', 'ISBN_13', strings(r.isbn_13, 'isbn_13'));
  add('isbn', 'ISBN_10', strings(r.isbn_10, 'isbn_10'));
  add('lccn', 'OTHER', strings(r.lccn, 'lccn'), 'LCCN:');
  add('oclc', 'OTHER', strings(r.oclc_numbers, 'oclc_numbers'), 'OCLC:');

  const olid = key.slice(key.lastIndexOf('/') + 1);
  const page = `${SITE}${key}`;
  const authors = authorNames(r);
  return {
    id: volumeIdOf('openlibrary', olid),
    source: 'openlibrary',
    sourceKey: key,
    volumeInfo: {
      title,
      ...(subtitle ? { subtitle } : {}),
      ...(authors.length ? { authors } : {}),
      ...(publishers.length ? { publisher: checkText(publishers[0], 'a publisher', LIMITS.name) } : {}),
      ...(publishDate && publishedDateOf(publishDate) ? { publishedDate: publishedDateOf(publishDate) } : {}),
      ...(typeof description === 'string' && description.trim() ? { description: checkText(description.trim(), 'description', LIMITS.description) } : {}),
      industryIdentifiers: [...identifiers, { type: 'OTHER', identifier: `OL:${olid}` }],
      readingModes: { text: false, image: false },
      ...(pages !== undefined ? { pageCount: pages as number } : {}),
      printType: 'BOOK',
      ...(subjects.length ? { categories: subjects, mainCategory: subjects[0] } : {}),
      maturityRating: 'NOT_MATURE',
      allowAnonLogging: false,
      contentVersion: `ol-${typeof r.revision === 'number' ? r.revision : 1}`,
      ...(cover ? { imageLinks: { smallThumbnail: `https://covers.openlibrary.org/b/id/${cover}-S.jpg`, thumbnail: `https://covers.openlibrary.org/b/id/${cover}-M.jpg` } } : {}),
      language: marc && /^[a-z]{3}$/.test(marc) ? (LANGUAGES[marc] ?? marc) : 'und',
      infoLink: page,
      canonicalVolumeLink: page,
    },
    saleInfo: { country: 'US', saleability: 'NOT_FOR_SALE', isEbook: false },
    accessInfo: {
      country: 'US',
      viewability: 'NO_PAGES',
      embeddable: false,
      publicDomain: false,
      textToSpeechPermission: 'NOT_ALLOWED',
      epub: { isAvailable: false },
      pdf: { isAvailable: false },
      accessViewStatus: 'NONE',
      quoteSharingAllowed: false,
    },
    lookups,
  };
}
