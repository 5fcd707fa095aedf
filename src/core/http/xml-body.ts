// XML request bodies nest no deeper than JSON ones: the parsers and every walk over their result recurse once per
// level, so a document thousands of elements deep would overflow the stack. The depth is counted without recursion.
import { MAX_JSON_DEPTH } from './json-body.ts';

/** Deepest nesting of elements accepted in an XML body. */
export const MAX_XML_DEPTH = MAX_JSON_DEPTH;

/** Index just past `end`, searched from `from`; the text's length when it never comes. */
function skipPast(text: string, from: number, end: string): number {
  const at = text.indexOf(end, from);
  return at < 0 ? text.length : at + end.length;
}

/** The deepest element nesting in an XML text (comments, CDATA, declarations and quoted attribute values skipped). */
export function xmlNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('<', i);
    if (open < 0) break;
    if (text.startsWith('<!--', open)) i = skipPast(text, open + 4, '-->');
    else if (text.startsWith('<![CDATA[', open)) i = skipPast(text, open + 9, ']]>');
    else if (text[open + 1] === '?' || text[open + 1] === '!') i = skipPast(text, open + 2, '>');
    else if (text[open + 1] === '/') {
      depth--;
      i = skipPast(text, open + 2, '>');
    } else {
      // An opening tag: find its end outside quoted attribute values, then tell `<a/>` from `<a>`.
      let j = open + 1;
      let quote = '';
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      if (text[j - 1] !== '/' && ++depth > deepest) deepest = depth;
      i = j + 1;
    }
  }
  return deepest;
}

/** True when the document nests deeper than `maxDepth`. */
export const xmlTooDeep = (text: string, maxDepth = MAX_XML_DEPTH): boolean => xmlNestingDepth(text) > maxDepth;
