// Catalog: products with their status per destination and their item-level issues.
import { api, formatTime, html, Loaded, Page, Table, useLoad } from './lib.js';

export function Catalog() {
  const state = useLoad(() => api('/console/api/catalog/products'));
  return html`<${Page} title="Catalog" actions=${html`<button type="button" onClick=${state.reload}>Refresh</button>`}>
    <${Loaded} state=${state}>${({ products }) => html`<${Table} caption="Products" columns=${['Merchant', 'Product', 'Title', 'Approved', 'Destinations', 'Issues', 'Updated']} rows=${products} empty="No products."
      cells=${(p) => [p.merchantId, html`<code>${p.id}</code>`, p.title ?? '', p.approved ? 'yes' : 'no',
        html`<ul class="plain">${p.destinations.map((d) => html`<li>${d.destination}: ${d.status ?? ''}</li>`)}</ul>`,
        p.issues.length ? html`<ul class="plain">${p.issues.map((i) => html`<li><code>${i.code}</code> ${i.attribute ? `(${i.attribute}) ` : ''}${i.description ?? ''}</li>`)}</ul>` : 'none',
        formatTime(p.updatedAt)]} />`}<//>
  <//>`;
}
