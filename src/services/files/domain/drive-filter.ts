// drives.list's `q`: the few terms Drive v2 documents for shared drives, joined by `and`.
import { invalidValue } from '../errors.ts';

/** Drive v2's drives.list q terms that this twin understands: name (=, !=, contains) and hidden (=, !=), joined by and. */
export function driveFilter(q: string | undefined): (d: { name: string; hidden: boolean }) => boolean {
  if (!q || !q.trim()) return () => true;
  // A run of whitespace is split at its start only: `\s+and` tried from every space of a long run was quadratic.
  const tests = q.split(/(?<!\s)\s+and\s+/i).map((clause) => {
    const m = /^\s*(name|hidden)\s*(=|!=|contains)\s*(?:'((?:[^'\\]|\\.)*)'|(true|false))\s*$/i.exec(clause);
    if (!m) throw invalidValue('q', `Invalid query: ${clause.trim()}`);
    const [, term, op, quoted, flag] = m;
    if (term.toLowerCase() === 'hidden') {
      if (flag === undefined || op === 'contains') throw invalidValue('q', `Invalid query: ${clause.trim()}`);
      return (d: { hidden: boolean }) => (d.hidden === (flag === 'true')) === (op === '=');
    }
    if (quoted === undefined) throw invalidValue('q', `Invalid query: ${clause.trim()}`);
    const value = quoted.replace(/\\(.)/g, '$1');
    if (op === 'contains') return (d: { name: string }) => d.name.toLowerCase().includes(value.toLowerCase());
    return (d: { name: string }) => (d.name === value) === (op === '=');
  });
  return (d) => tests.every((t) => t(d as any));
}
