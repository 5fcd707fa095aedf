// Bidding: daily bid metrics per bidder as a chart (with its numbers in a table), and every filter set, transient
// ones with the time they expire.
import { api, formatTime, html, Loaded, Page, Table, useLoad } from './lib.js';

const SERIES = [
  { key: 'bids', label: 'Bids', className: 's1' },
  { key: 'inAuction', label: 'In auction', className: 's2' },
  { key: 'won', label: 'Won', className: 's3' },
  { key: 'billed', label: 'Billed', className: 's4' },
];

export function Bidding() {
  const state = useLoad(() => api('/console/api/bidding/filter-sets'));
  const metrics = useLoad(() => api('/console/api/bidding/metrics'));
  const reload = () => [state, metrics].forEach((s) => s.reload());
  return html`<${Page} title="Bidding" actions=${html`<button type="button" onClick=${reload}>Refresh</button>`}>
    <h2>Bid metrics, last ${metrics.data?.dates.length ?? 14} days</h2>
    <${Loaded} state=${metrics}>${({ dates, bidders }) => bidders.length === 0
      ? html`<p class="muted">No bid events in this period.</p>`
      : bidders.map((b) => html`<${MetricsChart} key=${b.bidder} dates=${dates} metrics=${b} />`)}<//>
    <h2>Filter sets</h2>
    <${Loaded} state=${state}>${({ filterSets }) => html`<${Table} caption="Filter sets" columns=${['Name', 'Owner', 'Kind', 'Created', 'Expires', 'Definition']} rows=${filterSets} empty="No filter sets."
      cells=${(f) => [html`<code>${f.name}</code>`, f.owner, f.transient ? 'transient' : 'persistent', formatTime(f.createdAt), f.expiresAt ? formatTime(f.expiresAt) : '',
        html`<details><summary>JSON</summary><pre>${JSON.stringify(f.filterSet, null, 2)}</pre></details>`]} />`}<//>
  <//>`;
}

/** One line per counter over the days; the same numbers follow in a table for readers that cannot see the chart. */
function MetricsChart({ dates, metrics }) {
  const width = 640;
  const height = 160;
  const max = Math.max(1, ...SERIES.flatMap((s) => metrics[s.key]));
  const x = (i) => (dates.length === 1 ? width / 2 : (i / (dates.length - 1)) * (width - 20) + 10);
  const y = (v) => height - 10 - (v / max) * (height - 20);
  return html`<figure class="chart">
    <figcaption>Bidder ${metrics.bidder}: ${SERIES.map((s) => html`<span class=${`key ${s.className}`}>${s.label}</span> `)}</figcaption>
    <svg viewBox=${`0 0 ${width} ${height}`} width=${width} height=${height} role="img" aria-label=${`Daily bid metrics of bidder ${metrics.bidder}, at most ${max} a day`}>
      <line x1="0" y1=${height - 10} x2=${width} y2=${height - 10} class="axis" />
      ${SERIES.map((s) => html`<polyline class=${`line ${s.className}`} fill="none" points=${metrics[s.key].map((v, i) => `${x(i)},${y(v)}`).join(' ')} />`)}
    </svg>
    <details><summary>Numbers</summary>
      <${Table} caption=${`Bidder ${metrics.bidder} per day`} columns=${['Day', ...SERIES.map((s) => s.label)]} rows=${dates.map((d, i) => ({ d, i }))}
        cells=${({ d, i }) => [d, ...SERIES.map((s) => metrics[s.key][i])]} />
    </details>
  </figure>`;
}
