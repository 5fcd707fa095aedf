// Secrets: seal state, mounts, a KV tree opened folder by folder with each entry's versions and metadata, policies,
// and tokens listed by accessor (never by value).
import { useState } from 'preact/hooks';
import { api, formatTime, html, Loaded, Page, Table, TreeBranch, useLoad } from './lib.js';

const q = (params) => new URLSearchParams(params).toString();

export function Secrets() {
  const status = useLoad(() => api('/console/api/secrets/status'));
  const mounts = useLoad(() => api('/console/api/secrets/mounts'));
  const policies = useLoad(() => api('/console/api/secrets/policies'));
  const tokens = useLoad(() => api('/console/api/secrets/tokens'));
  const [entry, setEntry] = useState(null);
  const reload = () => [status, mounts, policies, tokens].forEach((s) => s.reload());
  return html`<${Page} title="Secrets" actions=${html`<button type="button" onClick=${reload}>Refresh</button>`}>
    <${Loaded} state=${status}>${({ seal }) => html`<p>Seal: <strong>${seal.sealed ? 'sealed' : 'unsealed'}</strong> · ${seal.initialized ? 'initialised' : 'not initialised'} · ${seal.t} of ${seal.n} key shares · version ${seal.version}</p>`}<//>
    <h2>Mounts and KV tree</h2>
    <div class="split">
      <${Loaded} state=${mounts}>${({ mounts: list }) => html`<ul class="tree" aria-label="Secret engines">
        ${list.map((m) => m.kvVersion ? html`<${Folder} mount=${m.path} path="" label=${`${m.path} (kv v${m.kvVersion})`} onOpen=${setEntry} />` : html`<li class="muted">${m.path} (${m.type})</li>`)}
      </ul>`}<//>
      <div class="detail">${entry ? html`<${Entry} key=${entry.mount + entry.path} ...${entry} />` : html`<p class="muted">Choose an entry in the tree.</p>`}</div>
    </div>
    <h2>Policies</h2>
    <${Loaded} state=${policies}>${({ policies: list }) => html`<ul class="plain">${list.map((p) => html`<li><details><summary>${p.name}</summary><pre>${p.policy || '(built in)'}</pre></details></li>`)}</ul>`}<//>
    <h2>Tokens</h2>
    <${Loaded} state=${tokens}>${({ tokens: list }) => html`<${Table} caption="Tokens by accessor" columns=${['Accessor', 'Name', 'Policies', 'Type', 'Created', 'Expires']} rows=${list}
      cells=${(t) => [html`<code>${t.accessor}</code>`, t.displayName, t.policies.join(', '), t.type, formatTime(t.createdAt), t.expiresAt ? formatTime(t.expiresAt) : 'never']} />`}<//>
  <//>`;
}

/** One folder of a KV mount: its keys load when it is opened (sub-folders end with a slash). */
function Folder({ mount, path, label, onOpen }) {
  const load = async () => (await api(`/console/api/secrets/kv/list?${q({ mount, path })}`)).keys;
  const renderChildren = (keys) =>
    keys.map((k) => k.endsWith('/')
      ? html`<${Folder} mount=${mount} path=${path + k} label=${k} onOpen=${onOpen} />`
      : html`<li><button type="button" class="link" onClick=${() => onOpen({ mount, path: path + k })}>${k}</button></li>`);
  return html`<${TreeBranch} label=${label} load=${load} renderChildren=${renderChildren} />`;
}

function Entry({ mount, path }) {
  const state = useLoad(() => api(`/console/api/secrets/kv/entry?${q({ mount, path })}`), [mount, path]);
  const [shown, setShown] = useState(false);
  return html`<article aria-label=${`Secret ${mount}${path}`}>
    <h3>${mount}${path}</h3>
    <${Loaded} state=${state}>${(e) => html`
      ${e.data ? html`<dl class="kv">${Object.entries(e.data).map(([k, v]) => html`<dt>${k}</dt><dd><code>${shown ? JSON.stringify(v) : '••••••'}</code></dd>`)}</dl>
        <button type="button" class="small" aria-pressed=${shown ? 'true' : 'false'} onClick=${() => setShown(!shown)}>${shown ? 'Hide values' : 'Show values'}</button>` : html`<p class="muted">The current version has no data (deleted or destroyed).</p>`}
      ${e.metadata ? html`
        <p>Current version ${e.metadata.current_version} · oldest ${e.metadata.oldest_version} · max versions ${e.metadata.max_versions || 'default'} · created ${formatTime(e.metadata.created_time)} · updated ${formatTime(e.metadata.updated_time)}</p>
        ${Object.keys(e.metadata.custom_metadata ?? {}).length ? html`<p>Custom metadata: <code>${JSON.stringify(e.metadata.custom_metadata)}</code></p>` : null}
        <${Table} caption="Versions" columns=${['Version', 'Created', 'Deleted', 'Destroyed']} rows=${Object.entries(e.metadata.versions).sort((a, b) => Number(b[0]) - Number(a[0]))}
          cells=${([n, v]) => [n, formatTime(v.created_time), v.deletion_time ? formatTime(v.deletion_time) : '', v.destroyed ? 'yes' : '']} />` : null}`}<//>
  </article>`;
}
