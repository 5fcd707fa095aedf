// What every console view shares: the htm binding, JSON calls to the admin listener, a loading hook, and a few
// small components (tables, copy buttons, errors, timelines).
import { h } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);

/** Calls the admin API; rejects with the API's error message. */
export async function api(path, { method = 'GET', body } = {}) {
  const res = await fetch(path, {
    method,
    headers: body !== undefined ? { 'content-type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new Error(data?.error?.message ?? `${res.status} ${res.statusText}`);
  return data;
}

/** Loads once per change of `deps`; `reload` fetches again. */
export function useLoad(load, deps = []) {
  const [state, setState] = useState({ loading: true, data: undefined, error: undefined });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ loading: false, data, error: undefined }),
      (error) => live && setState({ loading: false, data: undefined, error }),
    );
    return () => {
      live = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}

export function Loaded({ state, children }) {
  if (state.error) return html`<p class="error" role="alert">${state.error.message}</p>`;
  if (state.data === undefined) return html`<p class="muted" aria-live="polite">Loading…</p>`;
  return children(state.data);
}

export function Page({ title, actions, children }) {
  return html`<section aria-labelledby="page-title">
    <header class="page-header">
      <h1 id="page-title" tabindex="-1">${title}</h1>
      ${actions ? html`<div class="actions">${actions}</div>` : null}
    </header>
    ${children}
  </section>`;
}

/** A table with a caption and column headers; `cells(row)` gives one row's cells in column order. */
export function Table({ caption, columns, rows, cells, empty = 'Nothing yet.' }) {
  if (!rows.length) return html`<p class="muted">${caption}: ${empty}</p>`;
  return html`<div class="table-wrap"><table>
    <caption>${caption}</caption>
    <thead><tr>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${cells(r).map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody>
  </table></div>`;
}

export function CopyButton({ value, label }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return html`<button type="button" class="small" onClick=${copy} aria-label=${`Copy ${label}`}>${copied ? 'Copied' : 'Copy'}</button>`;
}

export function Timeline({ steps, label }) {
  return html`<ol class="timeline" aria-label=${label}>
    ${steps.map((s) => html`<li><span class="state">${s.label ?? s.state}</span> <time datetime=${s.at}>${formatTime(s.at)}</time>${s.detail || s.message ? html` <span class="muted">${s.detail ?? s.message}</span>` : null}</li>`)}
  </ol>`;
}

export function formatTime(iso) {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '';
}

export function money(minor, currency) {
  return `${(Number(minor) / 100).toFixed(2)} ${currency}`;
}

/** Runs an action from a button, showing its error or result in a live region. */
export function useAction() {
  const [status, setStatus] = useState({ message: '', error: false });
  const run = async (fn, done) => {
    setStatus({ message: 'Working…', error: false });
    try {
      const result = await fn();
      setStatus({ message: done ? done(result) : 'Done.', error: false });
      return result;
    } catch (err) {
      setStatus({ message: err.message, error: true });
      return undefined;
    }
  };
  const view = html`<p class=${status.error ? 'error' : 'status'} role="status" aria-live="polite">${status.message}</p>`;
  return { run, view };
}

/**
 * One branch of a tree that loads its children when first opened: `load()` resolves with the items and
 * `renderChildren(items)` draws them (as more branches or leaf items). Each branch is a disclosure button
 * (aria-expanded) in nested lists, so Tab and Enter are all the keyboard needs.
 */
export function TreeBranch({ label, load, renderChildren }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState({ items: null, error: null });
  const toggle = async () => {
    const next = !open;
    setOpen(next);
    if (next && !state.items) {
      try {
        setState({ items: await load(), error: null });
      } catch (err) {
        setState({ items: null, error: err.message });
      }
    }
  };
  return html`<li>
    <button type="button" class="link" aria-expanded=${open ? 'true' : 'false'} onClick=${toggle}><span aria-hidden="true">${open ? '▾' : '▸'}</span> ${label}</button>
    ${open ? html`<ul>
      ${state.error ? html`<li class="error">${state.error}</li>` : null}
      ${state.items?.length === 0 ? html`<li class="muted">empty</li>` : null}
      ${state.items ? renderChildren(state.items) : null}
    </ul>` : null}
  </li>`;
}
