// The request inspector: the last requests of every service, filterable, followed live through server-sent events.
import { useEffect, useState } from 'preact/hooks';
import { api, formatTime, html, Page } from './lib.js';

const KEEP = 500;

export function Requests({ arg }) {
  const [filter, setFilter] = useState({ service: arg || '', method: '', path: '', status: '' });
  const [rows, setRows] = useState([]);
  const [error, setError] = useState(null);
  const [live, setLive] = useState(false);
  const [open, setOpen] = useState(null);
  const [services, setServices] = useState([]);
  useEffect(() => {
    api('/console/api/services').then((r) => setServices(r.services.map((s) => s.id)), () => undefined);
  }, []);
  useEffect(() => {
    const params = new URLSearchParams(Object.entries(filter).filter(([, v]) => v));
    let source;
    let closed = false;
    api(`/console/api/requests?${params}`).then(
      (r) => {
        if (closed) return;
        setRows(r.requests.slice().reverse());
        setError(null);
        source = new EventSource(`/console/api/requests/stream?${params}`);
        source.onopen = () => setLive(true);
        source.onerror = () => setLive(false);
        source.addEventListener('request', (e) => {
          const entry = JSON.parse(e.data);
          // Entries replayed after a reconnect may be older than those shown: keep newest first by sequence.
          setRows((old) => (old.some((o) => o.seq === entry.seq) ? old : [entry, ...old].sort((a, b) => b.seq - a.seq).slice(0, KEEP)));
        });
      },
      (err) => setError(err.message),
    );
    return () => {
      closed = true;
      source?.close();
      setLive(false);
    };
  }, [filter.service, filter.method, filter.path, filter.status]);
  const field = (name) => (e) => setFilter({ ...filter, [name]: e.currentTarget.value });
  return html`<${Page} title="Requests">
    <form class="filters" aria-label="Filter requests" onSubmit=${(e) => e.preventDefault()}>
      <label for="filter-service">Service</label>
      <select id="filter-service" value=${filter.service} onChange=${field('service')}>
        <option value="">all</option>${services.map((s) => html`<option value=${s}>${s}</option>`)}
      </select>
      <label for="filter-method">Method</label>
      <select id="filter-method" value=${filter.method} onChange=${field('method')}>
        ${['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'LIST', 'HEAD'].map((m) => html`<option value=${m}>${m || 'any'}</option>`)}
      </select>
      <label for="filter-path">Path contains</label>
      <input id="filter-path" type="search" value=${filter.path} onChange=${field('path')} />
      <label for="filter-status">Status</label>
      <select id="filter-status" value=${filter.status} onChange=${field('status')}>
        ${['', '2xx', '3xx', '4xx', '5xx'].map((s) => html`<option value=${s}>${s || 'any'}</option>`)}
      </select>
    </form>
    <p class="status" role="status">${live ? 'Live: new requests appear at the top.' : 'Not connected.'} ${rows.length} shown.</p>
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    <div class="table-wrap"><table class="requests">
      <caption>Latest requests, newest first</caption>
      <thead><tr>${['Time', 'Service', 'Method', 'Path', 'Status', 'ms', 'Principal', ''].map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
      <tbody>${rows.map((r) => html`
        <tr class=${r.status >= 500 ? 'bad' : r.status >= 400 ? 'warn' : ''} data-request-id=${r.requestId}>
          <td><time datetime=${r.at}>${formatTime(r.at)}</time></td><td>${r.service}</td><td>${r.method}</td><td><code>${r.path}</code></td>
          <td>${r.status}</td><td>${r.ms}</td><td>${r.principal ?? ''}</td>
          <td><button type="button" class="small" aria-expanded=${open === r.seq ? 'true' : 'false'} onClick=${() => setOpen(open === r.seq ? null : r.seq)}>Bodies</button></td>
        </tr>
        ${open === r.seq ? html`<tr class="bodies"><td colspan="8">
          <h3>Request ${r.requestId}</h3><pre>${r.requestBody ?? '(no body)'}</pre>
          <h3>Response</h3><pre>${r.responseBody ?? '(no body)'}</pre>
        </td></tr>` : null}`)}
      </tbody>
    </table></div>
  <//>`;
}
