// What fullText searches: title, description, indexable text and the text of textual content, lower-cased.
const MAX_CONTENT_TEXT = 256 * 1024;

export function isTextual(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/json' || mime === 'application/xml' || mime === 'application/javascript';
}

export function searchText(parts: { title: string; description: string | null; indexableText?: string; contentText?: string }): string {
  return [parts.title, parts.description ?? '', parts.indexableText ?? '', (parts.contentText ?? '').slice(0, MAX_CONTENT_TEXT)].join('\n').toLowerCase();
}
