// A record of Project Gutenberg's catalog (pg_catalog.csv) as a books#volume: every ebook is in the public domain
// (in the United States), free, and readable in full, with an EPUB download at Project Gutenberg.
import { LIMITS, type CatalogVolume } from './catalog-volume.ts';
import { authorsOf } from './names.ts';
import { RecordError, checkText } from './record-error.ts';
import { volumeIdOf } from './volume-id.ts';

export const GUTENBERG_COLUMNS = ['Text#', 'Type', 'Issued', 'Title', 'Language', 'Authors', 'Subjects', 'LoCC', 'Bookshelves'] as const;
export type GutenbergRow = Record<(typeof GUTENBERG_COLUMNS)[number], string>;

const SITE = 'https://www.gutenberg.org';

const list = (field: string) =>
  field
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The volume of one catalog row; undefined for items that are not texts (audio, images, data sets), which Books
 * would not list as volumes.
 */
export function gutenbergVolume(row: GutenbergRow): CatalogVolume | undefined {
  for (const column of GUTENBERG_COLUMNS) if (row[column]?.includes('\u0000')) throw new RecordError(`${column} holds a NUL character`);
  const number = row['Text#'];
  if (!/^[1-9]\d{0,8}$/.test(number)) throw new RecordError(`Text# must be a positive ebook number, not "${number}"`);
  if (!row.Type) throw new RecordError('Type is empty');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(row.Issued) || Number.isNaN(Date.parse(row.Issued))) throw new RecordError(`Issued must be a date YYYY-MM-DD, not "${row.Issued}"`);
  const languages = list(row.Language);
  for (const code of languages) if (!/^[a-z]{2,3}$/.test(code)) throw new RecordError(`Language holds "${code}", not a language code`);
  const [title, ...more] = row.Title.split(/\r?\n/).map((s) => s.trim());
  if (!title) throw new RecordError('Title is empty');
  checkText(title, 'Title', LIMITS.title);
  const subtitle = more.filter(Boolean).join(' ') || undefined;
  if (subtitle) checkText(subtitle, 'subtitle', LIMITS.subtitle);
  if (row.Type !== 'Text') return undefined;

  const authors = authorsOf(row.Authors);
  for (const a of authors) checkText(a, 'an author', LIMITS.name);
  // Bookshelves name Project Gutenberg's browsing categories too ("Browsing: Fiction").
  const categories = [...new Set([...list(row.Subjects), ...list(row.Bookshelves).map((s) => s.replace(/^Browsing:\s*/, ''))])];
  if (categories.length > LIMITS.categories) throw new RecordError(`more than ${LIMITS.categories} subjects and bookshelves`);
  for (const c of categories) checkText(c, 'a subject', LIMITS.category);

  const page = `${SITE}/ebooks/${number}`;
  return {
    id: volumeIdOf('gutenberg', number),
    source: 'gutenberg',
    sourceKey: number,
    volumeInfo: {
      title,
      ...(subtitle ? { subtitle } : {}),
      ...(authors.length ? { authors } : {}),
      publisher: 'Project Gutenberg',
      publishedDate: row.Issued,
      industryIdentifiers: [{ type: 'OTHER', identifier: `GUTENBERG:${number}` }],
      readingModes: { text: true, image: false },
      printType: 'BOOK',
      ...(categories.length ? { categories, mainCategory: categories[0] } : {}),
      maturityRating: 'NOT_MATURE',
      allowAnonLogging: true,
      contentVersion: `pg-${row.Issued}`,
      imageLinks: {
        smallThumbnail: `${SITE}/cache/epub/${number}/pg${number}.cover.small.jpg`,
        thumbnail: `${SITE}/cache/epub/${number}/pg${number}.cover.medium.jpg`,
      },
      language: languages[0] ?? 'und',
      previewLink: `${SITE}/ebooks/${number}.html.images`,
      infoLink: page,
      canonicalVolumeLink: page,
    },
    saleInfo: { country: 'US', saleability: 'FREE', isEbook: true, buyLink: page },
    accessInfo: {
      country: 'US',
      viewability: 'ALL_PAGES',
      embeddable: true,
      publicDomain: true,
      textToSpeechPermission: 'ALLOWED',
      epub: { isAvailable: true, downloadLink: `${SITE}/ebooks/${number}.epub3.images` },
      // Project Gutenberg publishes EPUB, Kindle, HTML and plain text, not PDF.
      pdf: { isAvailable: false },
      webReaderLink: `${SITE}/ebooks/${number}.html.images`,
      accessViewStatus: 'FULL_PUBLIC_DOMAIN',
      quoteSharingAllowed: true,
    },
    lookups: [],
  };
}
