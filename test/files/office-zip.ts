// Reads the parts of an Office Open XML file (a zip) a test checks: the document's paragraphs with their styles and
// its title, or a workbook's sheet names and cells.
import { strFromU8, unzipSync } from 'fflate';

const unxml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

function parts(file: Buffer): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(new Uint8Array(file))).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

/** A Word document's paragraphs (style id, or '' for normal text; text with line breaks as \n) and its title. */
export function readDocx(file: Buffer): { title: string | undefined; paragraphs: Array<{ style: string; text: string }> } {
  const p = parts(file);
  const paragraphs = [...p['word/document.xml'].matchAll(/<w:p\b[^>]*?(?:\/>|>([\s\S]*?)<\/w:p>)/g)].map((m) => {
    const body = m[1] ?? '';
    const style = /<w:pStyle w:val="([^"]*)"/.exec(body)?.[1] ?? '';
    const text = [...body.matchAll(/<w:br\/>|<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((t) => (t[0] === '<w:br/>' ? '\n' : unxml(t[1]))).join('');
    return { style, text };
  });
  const title = /<dc:title>([^<]*)<\/dc:title>/.exec(p['docProps/core.xml'] ?? '')?.[1];
  return { title: title === undefined ? undefined : unxml(title), paragraphs };
}

/** A workbook's sheet names, and the first sheet's rows as [reference, value] pairs (numbers as numbers). */
export function readXlsx(file: Buffer): { sheets: string[]; cells: Array<[string, string | number]> } {
  const p = parts(file);
  const shared = [...(p['xl/sharedStrings.xml'] ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => [...m[1].matchAll(/<t[^>]*>([^<]*)<\/t>/g)].map((t) => unxml(t[1])).join(''));
  const sheets = [...p['xl/workbook.xml'].matchAll(/<sheet\b[^>]*name="([^"]*)"/g)].map((m) => unxml(m[1]));
  const cells = [...p['xl/worksheets/sheet1.xml'].matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(?:<v>([^<]*)<\/v>|<is><t[^>]*>([^<]*)<\/t><\/is>)<\/c>/g)].map(
    (m): [string, string | number] => {
      if (m[4] !== undefined) return [m[1], unxml(m[4])];
      return [m[1], /t="s"/.test(m[2]) ? shared[Number(m[3])] : Number(m[3])];
    },
  );
  return { sheets, cells };
}
