// What fullText searches: title, description, indexable text and the text of textual content, lower-cased.
/** Characters of a file's content text that fullText searches; only these are kept. */
export const MAX_CONTENT_TEXT = 256 * 1024;

export function isTextual(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/json' || mime === 'application/xml' || mime === 'application/javascript';
}

export function searchText(parts: { title: string; description: string | null; indexableText?: string; contentText?: string }): string {
  return [parts.title, parts.description ?? '', parts.indexableText ?? '', cutContentText(parts.contentText ?? '')].join('\n').toLowerCase();
}

/** The part of a content text that is searched and kept. */
export function cutContentText(text: string): string {
  return text.length > MAX_CONTENT_TEXT ? text.slice(0, MAX_CONTENT_TEXT) : text;
}
