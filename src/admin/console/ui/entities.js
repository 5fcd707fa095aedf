// Entities: a search box over the entity graph, answered by the service's own search.
import { useState } from 'preact/hooks';
import { api, html, Page } from './lib.js';

export function Entities() {
  const [query, setQuery] = useState('');
  const [state, setState] = useState({ results: null, error: null });
  const search = async (e) => {
    e.preventDefault();
    if (!query.trim()) return;
    try {
      setState({ results: (await api(`/console/api/entities/search?${new URLSearchParams({ query })}`)).results, error: null });
    } catch (err) {
      setState({ results: null, error: err.message });
    }
  };
  return html`<${Page} title="Entities">
    <form role="search" onSubmit=${search}>
      <label for="entity-query">Search entities</label>
      <input id="entity-query" type="search" value=${query} onInput=${(e) => setQuery(e.currentTarget.value)} />
      <button type="submit">Search</button>
    </form>
    ${state.error ? html`<p class="error" role="alert">${state.error}</p>` : null}
    ${state.results ? html`<ol class="results" aria-label="Search results">${state.results.length === 0 ? html`<li class="muted">No match.</li>` : null}
      ${state.results.map((r) => html`<li><strong>${r.name}</strong> <span class="muted">${(r.types ?? []).join(', ')} · score ${r.score}</span>
        ${r.description ? html`<p>${r.description}</p>` : null}${r.detail ? html`<p class="muted">${r.detail}</p>` : null}<p><code>${r.id}</code></p></li>`)}
    </ol>` : null}
  <//>`;
}
