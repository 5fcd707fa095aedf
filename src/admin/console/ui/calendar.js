// Calendar: one week (UTC, Monday first) with every calendar's events, recurring series expanded.
import { useState } from 'preact/hooks';
import { api, html, Loaded, Page, useLoad } from './lib.js';

const DAY_MS = 86_400_000;
const shift = (date, days) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export function Calendar() {
  const [start, setStart] = useState(null);
  const state = useLoad(() => api(`/console/api/calendar/week${start ? `?start=${start}` : ''}`), [start]);
  return html`<${Page} title="Calendar">
    <${Loaded} state=${state}>${(w) => {
      const days = Array.from({ length: 7 }, (_, i) => shift(w.weekStart, i));
      const calendarName = new Map(w.calendars.map((c) => [c.id, `${c.summary} (${c.owner})`]));
      return html`
        <div class="week-nav">
          <button type="button" onClick=${() => setStart(shift(w.weekStart, -7))}>Previous week</button>
          <button type="button" onClick=${() => setStart(null)}>This week</button>
          <button type="button" onClick=${() => setStart(shift(w.weekStart, 7))}>Next week</button>
          <span>Week of ${w.weekStart} (UTC) · ${w.calendars.length} calendar(s)</span>
        </div>
        <ol class="week" aria-label=${`Week of ${w.weekStart}`}>
          ${days.map((d) => {
            const events = w.events.filter((e) => e.start.slice(0, 10) <= d && (e.end.slice(0, 10) > d || e.start.slice(0, 10) === d));
            return html`<li class="day"><h2>${new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })}</h2>
              <ul>${events.map((e) => html`<li class="event"><strong>${e.allDay ? 'all day' : e.start.slice(11, 16)}</strong> ${e.summary}${e.recurring ? ' ↻' : ''}<br /><span class="muted">${calendarName.get(e.calendarId) ?? e.calendarId}</span></li>`)}</ul>
            </li>`;
          })}
        </ol>`;
    }}<//>
  <//>`;
}
