// Principals and their credentials: create a principal, issue a credential (its value is shown once), revoke one.
import { useState } from 'preact/hooks';
import { api, CopyButton, formatTime, html, Loaded, Page, Table, useAction, useLoad } from './lib.js';

export function Principals() {
  const principals = useLoad(() => api('/principals'));
  const credentials = useLoad(() => api('/credentials'));
  const action = useAction();
  const [issued, setIssued] = useState(null);
  const [form, setForm] = useState({ kind: 'user', name: '' });
  const [cred, setCred] = useState({ principalId: '', type: 'api_key', label: '' });
  const reload = () => [principals, credentials].forEach((s) => s.reload());
  const create = (e) => {
    e.preventDefault();
    action.run(() => api('/principals', { method: 'POST', body: form }), (p) => `Principal ${p.id} created.`).then(reload);
  };
  const issue = (e) => {
    e.preventDefault();
    const body = { type: cred.type, ...(cred.label ? { label: cred.label } : {}) };
    action
      .run(() => api(`/principals/${encodeURIComponent(cred.principalId)}/credentials`, { method: 'POST', body }), () => 'Credential issued: copy its value now, it is not shown again.')
      .then((c) => {
        if (c) setIssued(c);
        reload();
      });
  };
  const revoke = (c) => {
    if (!confirm(`Revoke ${c.type} ${c.label ?? c.id}?`)) return;
    action.run(() => api(`/credentials/${encodeURIComponent(c.id)}`, { method: 'DELETE' }), () => 'Revoked.').then(reload);
  };
  return html`<${Page} title="Principals and credentials">
    ${action.view}
    ${issued ? html`<p class="issued" role="alert">New ${issued.type} for ${issued.principalId}: <code>${issued.value}</code> <${CopyButton} value=${issued.value} label="new credential" /></p>` : null}
    <${Loaded} state=${principals}>${({ principals: list }) => html`
      <${Table} caption="Principals" columns=${['Id', 'Kind', 'Name', 'Created']} rows=${list} cells=${(p) => [html`<code>${p.id}</code>`, p.kind, p.name, formatTime(p.createdAt)]} />
      <form onSubmit=${issue} aria-label="Issue a credential">
        <h2>Issue a credential</h2>
        <label for="cred-principal">Principal</label>
        <select id="cred-principal" value=${cred.principalId} onChange=${(e) => setCred({ ...cred, principalId: e.currentTarget.value })} required>
          <option value="">choose…</option>${list.map((p) => html`<option value=${p.id}>${p.name} (${p.id})</option>`)}
        </select>
        <label for="cred-type">Type</label>
        <select id="cred-type" value=${cred.type} onChange=${(e) => setCred({ ...cred, type: e.currentTarget.value })}>
          <option value="api_key">API key</option><option value="bearer">bearer token</option><option value="licence_key">licence key</option>
        </select>
        <label for="cred-label">Label</label>
        <input id="cred-label" value=${cred.label} onInput=${(e) => setCred({ ...cred, label: e.currentTarget.value })} />
        <button type="submit">Issue</button>
      </form>`}<//>
    <${Loaded} state=${credentials}>${({ credentials: list }) => html`<${Table} caption="Credentials (values are never shown again)" columns=${['Principal', 'Type', 'Label', 'Scopes', 'Created', 'Expires', '']} rows=${list}
      cells=${(c) => [c.principalId, c.type, c.label ?? '', (c.scopes ?? []).length, formatTime(c.createdAt), c.expiresAt ? formatTime(c.expiresAt) : 'never',
        html`<button type="button" class="small danger" onClick=${() => revoke(c)} aria-label=${`Revoke ${c.type} ${c.label ?? c.id}`}>Revoke</button>`]} />`}<//>
    <form onSubmit=${create} aria-label="Create a principal">
      <h2>Create a principal</h2>
      <label for="principal-kind">Kind</label>
      <select id="principal-kind" value=${form.kind} onChange=${(e) => setForm({ ...form, kind: e.currentTarget.value })}>
        <option value="user">user</option><option value="service_account">service account</option>
      </select>
      <label for="principal-name">Name</label>
      <input id="principal-name" value=${form.name} onInput=${(e) => setForm({ ...form, name: e.currentTarget.value })} required />
      <button type="submit">Create</button>
    </form>
  <//>`;
}
