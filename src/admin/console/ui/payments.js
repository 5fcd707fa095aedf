// Payments: transactions with the timeline of their states, batches, and Paylink tokens with their timeline and
// hosted page.
import { useState } from 'preact/hooks';
import { api, formatTime, html, Loaded, money, Page, Table, Timeline, useLoad } from './lib.js';

export function Payments() {
  const txs = useLoad(() => api('/console/api/payments/transactions'));
  const batches = useLoad(() => api('/console/api/payments/batches'));
  const paylinks = useLoad(() => api('/console/api/payments/paylinks'));
  const [open, setOpen] = useState(null);
  const reload = () => [txs, batches, paylinks].forEach((s) => s.reload());
  const toggle = (id) => setOpen(open === id ? null : id);
  return html`<${Page} title="Payments" actions=${html`<button type="button" onClick=${reload}>Refresh</button>`}>
    <h2>Transactions</h2>
    <${Loaded} state=${txs}>${({ transactions }) => html`<${Table} caption="Latest transactions" columns=${['Merchant', 'Trans no', 'Identifier', 'Type', 'Amount', 'Card', 'State', 'Timeline']} rows=${transactions}
      cells=${(t) => [t.merchantid, t.transno, t.identifier, t.type, money(t.amount, t.currency), t.maskedpan, t.statusLabel,
        html`<button type="button" class="small" aria-expanded=${open === t.id ? 'true' : 'false'} onClick=${() => toggle(t.id)}>${open === t.id ? 'Hide' : 'Show'} timeline</button>
          ${open === t.id ? html`<${Timeline} steps=${t.timeline} label=${`Timeline of transaction ${t.transno}`} />` : null}`]} />`}<//>
    <h2>Batches</h2>
    <${Loaded} state=${batches}>${({ batches: list }) => html`<${Table} caption="Batches" columns=${['Merchant', 'Batch', 'Date', 'Closed', 'Status', 'Debits', 'Credits', 'Net']} rows=${list}
      cells=${(b) => [b.merchantid, b.batch_no, b.batch_date, formatTime(b.batch_closed), b.status_code, `${b.debit_count} · ${money(b.debit_value, b.currency)}`, `${b.credit_count} · ${money(b.credit_value, b.currency)}`, money(b.net_amount, b.currency)]} />`}<//>
    <h2>Paylink tokens</h2>
    <${Loaded} state=${paylinks}>${({ paylinks: list }) => html`<${Table} caption="Paylink tokens" columns=${['Identifier', 'Merchant', 'Amount', 'State', 'Expires', 'Hosted page', 'Timeline']} rows=${list}
      cells=${(p) => [p.identifier, p.merchantid, money(p.amount, p.currency), `${p.state}${p.paid ? ' (paid)' : ''}`, formatTime(p.expiresAt), html`<a href=${p.hostedPage} target="_blank" rel="noopener noreferrer">open</a>`,
        html`<button type="button" class="small" aria-expanded=${open === p.token ? 'true' : 'false'} onClick=${() => toggle(p.token)}>${open === p.token ? 'Hide' : 'Show'} timeline</button>
          ${open === p.token ? html`<${Timeline} steps=${p.timeline} label=${`Timeline of Paylink ${p.identifier}`} />` : null}`]} />`}<//>
  <//>`;
}
