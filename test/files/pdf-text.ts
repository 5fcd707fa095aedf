// Reads back what a PDF drawn with the standard fonts shows: its page count, its document title, and the text of its
// content streams (each text-showing operator a line; the pieces a kerned TJ array splits a run into joined again).
import { inflateSync } from 'node:zlib';

export interface PdfText {
  pages: number;
  title: string | undefined;
  lines: string[];
}

export function readPdf(pdf: Buffer): PdfText {
  const source = pdf.toString('latin1');
  const lines: string[] = [];
  for (const match of source.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(match[1], 'latin1')).toString('latin1');
    } catch {
      content = match[1];
    }
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hex = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('') : op[2];
      lines.push(fromWindows1252(Buffer.from(hex, 'hex')));
    }
  }
  return { pages: [...source.matchAll(/\/Type\s*\/Page\b/g)].length, title: infoTitle(source), lines };
}

/** The document information's Title: a string object, or a reference to one; UTF-16 when it starts with a BOM. */
function infoTitle(source: string): string | undefined {
  const ref = /\/Title\s+(\d+)\s+0\s+R/.exec(source);
  const at = ref ? source.indexOf(`${ref[1]} 0 obj`) + `${ref[1]} 0 obj`.length : source.indexOf('/Title') + '/Title'.length;
  const value = /^\s*(?:\(((?:\\[\s\S]|[^\\)])*)\)|<([0-9a-fA-F]*)>)/.exec(source.slice(at));
  if (!value) return undefined;
  const bytes = value[2] !== undefined ? Buffer.from(value[2], 'hex') : Buffer.from(unescapeLiteral(value[1]), 'latin1');
  return bytes[0] === 0xfe && bytes[1] === 0xff ? Buffer.from(bytes.subarray(2)).swap16().toString('utf16le') : fromWindows1252(bytes);
}

/** A PDF literal string's escapes (\\n, \\(, \\ddd ...) read. */
function unescapeLiteral(text: string): string {
  const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
  return text.replace(/\\([0-7]{1,3}|[\s\S])/g, (_, c: string) => (/^[0-7]/.test(c) ? String.fromCharCode(parseInt(c, 8)) : (named[c] ?? c)));
}

// Windows-1252's characters at 0x80-0x9F (the rest of its upper half is Latin-1); undefined ones stay as they are.
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** The standard fonts' bytes as text (Windows-1252). */
function fromWindows1252(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? HIGH[b - 0x80] : String.fromCharCode(b);
  return out;
}
