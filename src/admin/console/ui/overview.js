// Overview: every service with its URL, health, the credentials to call it, what it holds, links to its descriptions
// (OpenAPI, discovery) and a reset button.
import { api, CopyButton, html, Loaded, Page, useAction, useLoad } from './lib.js';

export function Overview() {
  const state = useLoad(() => api('/console/api/overview'));
  const action = useAction();
  const reset = (id) => {
    if (!confirm(`Empty every table of ${id} and restore its defaults?`)) return;
    action.run(() => api('/reset', { method: 'POST', body: { service: id } }), () => `${id} was reset.`).then(state.reload);
  };
  return html`<${Page} title="Overview" actions=${html`<button type="button" onClick=${state.reload}>Refresh</button>`}>
    ${action.view}
    <${Loaded} state=${state}>${(o) => html`
      <p>Admin API at <code>${o.admin}</code> · ${o.database.dialect} · ${o.clock.mode} clock</p>
      <dl class="credentials" aria-label="Development user">
        <dt>Development API key</dt><dd><code>${o.developer.apiKey}</code> <${CopyButton} value=${o.developer.apiKey} label="development API key" /></dd>
        <dt>Development bearer token</dt><dd><code>${o.developer.bearerToken}</code> <${CopyButton} value=${o.developer.bearerToken} label="development bearer token" /></dd>
      </dl>
      <ul class="cards">
        ${o.services.map((s) => html`<li class="card">
          <h2>${s.id} <span class=${s.health.ok ? 'ok' : 'bad'}>${s.health.ok ? 'up' : 'down'}</span></h2>
          <p class="muted">${s.title}</p>
          <p><a href=${s.url}>${s.url}</a> <${CopyButton} value=${s.url} label=${`${s.id} URL`} /></p>
          ${s.descriptions.length ? html`<p>${s.descriptions.map((d) => html`<a class="description" href=${d.url} target="_blank" rel="noopener noreferrer">${d.label}</a> `)}</p>` : null}
          ${s.health.sealed !== undefined ? html`<p>${s.health.sealed ? 'sealed' : 'unsealed'}</p>` : null}
          ${s.credentials.length
            ? html`<dl class="credentials">${s.credentials.map((c) => html`<dt>${c.label}</dt><dd><code>${c.value}</code> <${CopyButton} value=${c.value} label=${c.label} /></dd>`)}</dl>`
            : null}
          <details><summary>Holds ${Object.values(s.counts).reduce((a, b) => a + b, 0)} rows · ${s.requests} requests seen</summary>
            <ul class="counts">${Object.entries(s.counts).map(([table, n]) => html`<li><span>${table}</span> <span>${n}</span></li>`)}</ul>
          </details>
          <button type="button" class="danger" onClick=${() => reset(s.id)}>Reset ${s.id}</button>
        </li>`)}
      </ul>`}
    <//>
  <//>`;
}
