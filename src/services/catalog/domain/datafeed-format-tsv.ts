// Tab-separated feeds: the first non-empty line names the attributes, each further line is one item. Cells may be
// wrapped in double quotes (a doubled quote inside stands for one); a value does not span lines.
import { normaliseAttributeName } from './datafeed-format-attributes.ts';
import { feedIssue, type FeedReading, type RawEntry } from './datafeed-format-types.ts';

function unquote(cell: string): string {
  const t = cell.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).replace(/""/g, '"') : t;
}

interface Column {
  name: string;
  subAttributes?: string[];
}

/** `shipping(country:region:price)` declares the order of a grouped attribute's parts. */
function column(header: string): Column {
  const m = /^([^()]+)\(([^()]*)\)$/.exec(header.trim());
  if (!m) return { name: normaliseAttributeName(header) };
  return { name: normaliseAttributeName(m[1]), subAttributes: m[2].split(':').map(normaliseAttributeName) };
}

export function readTsv(body: string): FeedReading {
  const lines = body.replace(/^\uFEFF/, '').split(/\r?\n/);
  const issues: FeedReading['issues'] = [];
  const headerIndex = lines.findIndex((l) => l.trim() !== '');
  if (headerIndex < 0) return { items: [], issues: [feedIssue('error', 'parse/empty_feed', 'Empty feed', 'The file has no header line', 0)] };
  const columns = lines[headerIndex].split('\t').map((h) => column(unquote(h)));
  if (!columns.some((c) => c.name === 'id')) {
    issues.push(feedIssue('error', 'validation/missing_required', 'Missing column [id]', 'The header line names no id column', headerIndex + 1, { attribute: 'id' }));
  }
  const items: FeedReading['items'] = [];
  for (let i = headerIndex + 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const cells = lines[i].split('\t');
    if (cells.length > columns.length) {
      issues.push(feedIssue('warning', 'parse/too_many_values', 'Too many column values', `The line has ${cells.length} values for ${columns.length} columns; the extra ones are ignored`, i + 1));
    }
    const entries: RawEntry[] = columns.map((c, j) => ({ name: c.name, subAttributes: c.subAttributes, value: unquote(cells[j] ?? '') }));
    items.push({ lineNumber: i + 1, entries });
  }
  return { items, issues };
}
