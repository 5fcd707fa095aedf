// Manual clock control: set domain time or move it forward; what became due runs before the answer.
import { useState } from 'preact/hooks';
import { api, formatTime, html, Loaded, Page, useAction, useLoad } from './lib.js';

export function Clock() {
  const state = useLoad(() => api('/clock'));
  const action = useAction();
  const [advance, setAdvance] = useState('1h');
  const [set, setSet] = useState('');
  const move = (body) => (e) => {
    e.preventDefault();
    action
      .run(() => api('/clock', { method: 'POST', body }), (r) => `Now ${formatTime(r.now)}; ${r.jobsRun} job(s) ran.`)
      .then(() => {
        state.reload();
        dispatchEvent(new Event('twinstack:clock'));
      });
  };
  return html`<${Page} title="Clock">
    <${Loaded} state=${state}>${(c) => html`<p>Domain time <strong><time datetime=${c.now}>${formatTime(c.now)}</time></strong> (${c.mode} mode)</p>
      ${c.mode !== 'manual' ? html`<p class="muted">The clock follows the system; start with <code>--clock manual</code> to move it from here.</p>` : null}`}<//>
    <form onSubmit=${move({ advance })}>
      <label for="clock-advance">Advance by (90s, 2h, 3d)</label>
      <input id="clock-advance" value=${advance} onInput=${(e) => setAdvance(e.currentTarget.value)} required />
      <button type="submit">Advance</button>
    </form>
    <form onSubmit=${move({ set })}>
      <label for="clock-set">Set to (RFC 3339)</label>
      <input id="clock-set" value=${set} placeholder="2030-01-01T00:00:00Z" onInput=${(e) => setSet(e.currentTarget.value)} required />
      <button type="submit">Set</button>
    </form>
    ${action.view}
  <//>`;
}
