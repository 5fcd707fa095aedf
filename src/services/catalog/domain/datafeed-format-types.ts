// What the feed readers hand to the product builder, and the per-line problems every stage reports.
import type { RawValue } from './datafeed-format-attributes.ts';

export interface FeedIssue {
  severity: 'error' | 'warning';
  /** Datafeed status code, like `validation/invalid_value`. */
  code: string;
  /** The short message errors are grouped under, like `Invalid value [price]`. */
  message: string;
  /** What exactly is wrong on this line. */
  detail: string;
  /** 1-based line of the feed file; 0 for a problem of the whole file. */
  lineNumber: number;
  attribute?: string;
  itemId?: string;
  value?: string;
}

export interface RawEntry {
  /** The normalised attribute name (`image_link`). */
  name: string;
  /** Sub-attribute order from a TSV header like `shipping(country:price)`. */
  subAttributes?: string[];
  value: RawValue;
}

export interface RawItem {
  lineNumber: number;
  entries: RawEntry[];
}

export interface FeedReading {
  items: RawItem[];
  issues: FeedIssue[];
}

export function feedIssue(severity: FeedIssue['severity'], code: string, message: string, detail: string, lineNumber: number, extra: Partial<FeedIssue> = {}): FeedIssue {
  return { severity, code, message, detail, lineNumber, ...extra };
}
