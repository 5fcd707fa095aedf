// The `fields` partial-response selector: "a,b/c,d(e,f),*"; a nested path is written with `/` or, as in a field mask,
// `.` ("b.c" selects as "b/c" does). Parsing is strict; a bad selector is a 400 by the caller.

/** A selection: each key maps to a sub-selection, or `true` for the whole value. */
export type Selection = Map<string, Selection | true>;

export class FieldsSyntaxError extends Error {}

export function parseFields(text: string): Selection {
  let pos = 0;
  const fail = (what: string): never => {
    throw new FieldsSyntaxError(`Invalid field selection ${text}: ${what} at position ${pos}`);
  };
  const name = (): string => {
    const start = pos;
    while (pos < text.length && /[A-Za-z0-9_@$*-]/.test(text[pos])) pos++;
    if (pos === start) fail('expected a field name');
    const n = text.slice(start, pos);
    if (n.includes('*') && n !== '*') fail('a wildcard must stand alone');
    return n;
  };
  const merge = (into: Selection, key: string, sub: Selection | true) => {
    const have = into.get(key);
    if (have === true || sub === true) into.set(key, true);
    else if (have) for (const [k, v] of sub) merge(have, k, v);
    else into.set(key, sub);
  };
  // list := item (',' item)* ; item := path ['(' list ')'] ; path := name (('/' | '.') name)*
  const list = (depth: number): Selection => {
    const sel: Selection = new Map();
    for (;;) {
      while (text[pos] === ' ') pos++;
      const path = [name()];
      while (text[pos] === '/' || text[pos] === '.') {
        pos++;
        path.push(name());
      }
      let leaf: Selection | true = true;
      if (text[pos] === '(') {
        pos++;
        leaf = list(depth + 1);
        if (text[pos] !== ')') fail("expected ')'");
        pos++;
      }
      let node: Selection | true = leaf;
      for (let i = path.length - 1; i > 0; i--) node = new Map([[path[i], node]]);
      merge(sel, path[0], node);
      while (text[pos] === ' ') pos++;
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (pos === text.length || (depth > 0 && text[pos] === ')')) return sel;
      fail('unexpected character');
    }
  };
  if (text.trim() === '') fail('empty selection');
  return list(0);
}

/** Applies a selection to a JSON value. Arrays apply it to each element; absent fields stay absent. */
export function applyFields(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((v) => applyFields(v, selection));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const wildcard = selection.get('*');
  if (wildcard !== undefined) {
    for (const [k, v] of Object.entries(source)) out[k] = wildcard === true ? v : applyFields(v, wildcard);
  }
  for (const [key, sub] of selection) {
    if (key === '*' || !(key in source)) continue;
    out[key] = sub === true ? source[key] : applyFields(source[key], sub);
  }
  return out;
}
