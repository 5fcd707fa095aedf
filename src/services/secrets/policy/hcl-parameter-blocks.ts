// Vault reads policies with HCL 1, where `allowed_parameters { "foo" = [] }` (a block) and `allowed_parameters =
// { "foo" = [] }` (an attribute) are one and the same map. The HCL 2 parser refuses quoted names inside a block body,
// so the block form of the parameter maps is rewritten to the attribute form before parsing. Strings, comments and
// heredocs are skipped, and every newline is kept, so the parser's line numbers stay those of the text as written.

/** Path-block keys whose value is a map of parameter names, which may be quoted. */
const PARAMETER_MAP_KEYS = new Set(['allowed_parameters', 'denied_parameters']);

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_-]/;

/** `text` with each `allowed_parameters {` / `denied_parameters {` written as `... = {`. */
export function parameterBlocksAsAttributes(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const skipped = skipLiteral(text, i);
    if (skipped > i) {
      out += text.slice(i, skipped);
      i = skipped;
      continue;
    }
    if (!IDENTIFIER_START.test(text[i]) || (i > 0 && IDENTIFIER_PART.test(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    let end = i + 1;
    while (end < text.length && IDENTIFIER_PART.test(text[end])) end++;
    const name = text.slice(i, end);
    let brace = end;
    while (brace < text.length && /\s/.test(text[brace])) brace++;
    if (PARAMETER_MAP_KEYS.has(name) && text[brace] === '{') {
      // `={` takes the place of one blank where there is one, so the columns after it stay as written
      out += `${name}={${text.slice(end, brace).replace(/[ \t]/, '')}`;
      i = brace + 1;
    } else {
      out += name;
      i = end;
    }
  }
  return out;
}

/** The index just past a string, comment or heredoc starting at `i`; `i` itself when none starts there. */
function skipLiteral(text: string, i: number): number {
  const c = text[i];
  if (c === '#' || (c === '/' && text[i + 1] === '/')) return lineEnd(text, i);
  if (c === '/' && text[i + 1] === '*') {
    const close = text.indexOf('*/', i + 2);
    return close === -1 ? text.length : close + 2;
  }
  if (c === '"') {
    let j = i + 1;
    while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, text.length);
  }
  const heredoc = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)\r?\n/.exec(text.slice(i, i + 256));
  if (heredoc) {
    const marker = heredoc[1];
    let j = i + heredoc[0].length;
    while (j < text.length) {
      const next = lineEnd(text, j);
      if (text.slice(j, next).trim() === marker) return next;
      j = next + 1;
    }
    return text.length;
  }
  return i;
}

function lineEnd(text: string, i: number): number {
  const newline = text.indexOf('\n', i);
  return newline === -1 ? text.length : newline;
}
