// The outbox (e-mails rendered, SMS, webhooks with their attempts) and the scheduled jobs.
import { api, formatTime, html, Loaded, Page, Table, useAction, useLoad } from './lib.js';

export function Outbox() {
  const state = useLoad(() => api('/outbox?limit=200'));
  const action = useAction();
  const deliver = () => action.run(() => api('/outbox/deliver', { method: 'POST' }), (r) => `${r.attempted} message(s) attempted.`).then(state.reload);
  return html`<${Page} title="Outbox" actions=${html`<button type="button" onClick=${deliver}>Deliver due now</button> <button type="button" onClick=${state.reload}>Refresh</button>`}>
    ${action.view}
    <${Loaded} state=${state}>${({ messages }) => messages.length === 0 ? html`<p class="muted">Nothing sent yet.</p>` : html`<ol class="messages">${messages.map((m) => html`<li>
      <p><strong>${m.channel}</strong> from ${m.service} · ${m.status} · ${m.attempts} attempt(s) · created ${formatTime(m.createdAt)}${m.deliveredAt ? ` · delivered ${formatTime(m.deliveredAt)}` : ''}</p>
      <${Message} m=${m} />
    </li>`)}</ol>`}<//>
  <//>`;
}

/** An HTML e-mail is shown in a sandboxed frame with no script, so a message cannot act on the console. */
function Message({ m }) {
  const head = html`<dl class="kv"><dt>To</dt><dd>${m.recipient}</dd>${m.subject ? html`<dt>Subject</dt><dd>${m.subject}</dd>` : null}${m.lastError ? html`<dt>Last error</dt><dd class="error">${m.lastError}${m.lastStatus ? ` (${m.lastStatus})` : ''}</dd>` : null}</dl>`;
  if (m.channel === 'email' && /^\s*</.test(m.body)) {
    return html`${head}<iframe class="mail" sandbox="" title=${`E-mail: ${m.subject ?? ''}`} srcdoc=${m.body}></iframe>`;
  }
  if (m.channel === 'webhook') return html`${head}<details><summary>Headers and body</summary><pre>${JSON.stringify(m.headers, null, 2)}\n\n${m.body}</pre></details>`;
  return html`${head}<pre class="message">${m.body}</pre>`;
}

export function Jobs() {
  const state = useLoad(() => api('/jobs'));
  return html`<${Page} title="Jobs" actions=${html`<button type="button" onClick=${state.reload}>Refresh</button>`}>
    <${Loaded} state=${state}>${({ jobs }) => html`<${Table} caption="Scheduled background work" columns=${['Service', 'Kind', 'Status', 'Runs at', 'Attempts', 'Key']} rows=${jobs} empty="No jobs."
      cells=${(j) => [j.service, j.kind, j.status + (j.recur ? ` (${j.recur})` : ''), formatTime(j.runAt), j.attempts, html`<code>${j.key ?? j.id}</code>`]} />`}<//>
  <//>`;
}
