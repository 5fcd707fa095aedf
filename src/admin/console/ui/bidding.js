// Bidding: every filter set, transient ones with the time they expire.
import { api, formatTime, html, Loaded, Page, Table, useLoad } from './lib.js';

export function Bidding() {
  const state = useLoad(() => api('/console/api/bidding/filter-sets'));
  return html`<${Page} title="Bidding" actions=${html`<button type="button" onClick=${state.reload}>Refresh</button>`}>
    <${Loaded} state=${state}>${({ filterSets }) => html`<${Table} caption="Filter sets" columns=${['Name', 'Owner', 'Kind', 'Created', 'Expires', 'Definition']} rows=${filterSets} empty="No filter sets."
      cells=${(f) => [html`<code>${f.name}</code>`, f.owner, f.transient ? 'transient' : 'persistent', formatTime(f.createdAt), f.expiresAt ? formatTime(f.expiresAt) : '',
        html`<details><summary>JSON</summary><pre>${JSON.stringify(f.filterSet, null, 2)}</pre></details>`]} />`}<//>
  <//>`;
}
