// Error reporting: groups with their counts and a two-week sparkline; a group's events with their stack traces.
import { useState } from 'preact/hooks';
import { api, formatTime, html, Loaded, Page, Table, useLoad } from './lib.js';

function Sparkline({ values, label }) {
  const max = Math.max(1, ...values);
  const w = 4 * values.length;
  const points = values.map((v, i) => `${i * 4 + 2},${18 - (v / max) * 16}`).join(' ');
  return html`<svg class="spark" width=${w} height="20" viewBox=${`0 0 ${w} 20`} role="img" aria-label=${label}><polyline points=${points} fill="none" stroke="currentColor" stroke-width="1.5" /></svg>`;
}

export function ErrorReporting() {
  const groups = useLoad(() => api('/console/api/errorreporting/groups'));
  const [group, setGroup] = useState(null);
  return html`<${Page} title="Error reporting" actions=${html`<button type="button" onClick=${groups.reload}>Refresh</button>`}>
    <${Loaded} state=${groups}>${({ groups: list, days }) => html`<${Table} caption="Error groups" columns=${['Project', 'Service', 'Exception', 'Status', 'Events', `Last ${days} days`, 'Last seen', '']} rows=${list}
      cells=${(g) => [g.project, g.service, g.exceptionType, g.resolutionStatus, g.count, html`<${Sparkline} values=${g.daily} label=${`${g.daily.reduce((a, b) => a + b, 0)} events in the last ${days} days`} />`, formatTime(g.lastSeen),
        html`<button type="button" class="small" onClick=${() => setGroup(g)}>Events</button>`]} />`}<//>
    ${group ? html`<${Events} key=${group.project + group.groupId} group=${group} />` : null}
  <//>`;
}

function Events({ group }) {
  const state = useLoad(() => api(`/console/api/errorreporting/events?${new URLSearchParams({ project: group.project, group: group.groupId })}`), [group.groupId]);
  return html`<section aria-label="Events of the group">
    <h2>Events of ${group.exceptionType} in ${group.service}</h2>
    <${Loaded} state=${state}>${({ events }) => html`<ol class="events">${events.map((e) => html`<li>
      <p><time datetime=${e.eventTime}>${formatTime(e.eventTime)}</time> · ${e.service} ${e.version}${e.user ? ` · ${e.user}` : ''}</p>
      <pre class="stack">${e.message}</pre>
    </li>`)}</ol>`}<//>
  </section>`;
}
