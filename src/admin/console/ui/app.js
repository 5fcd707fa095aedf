// The console's shell: navigation, a hash router (#/page/arg) and the live clock in the header.
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, html } from './lib.js';
import { Overview } from './overview.js';
import { Secrets } from './secrets.js';
import { Payments } from './payments.js';
import { ErrorReporting } from './errorreporting.js';
import { Bidding } from './bidding.js';
import { Entities } from './entities.js';
import { Files } from './files.js';
import { Calendar } from './calendar.js';
import { Catalog } from './catalog.js';
import { Books } from './books.js';
import { Requests } from './requests.js';
import { Outbox, Jobs } from './background.js';
import { Clock } from './clock.js';
import { Principals } from './principals.js';

const PAGES = [
  { path: 'overview', label: 'Overview', view: Overview },
  { path: 'secrets', label: 'Secrets', view: Secrets, service: 'secrets' },
  { path: 'payments', label: 'Payments', view: Payments, service: 'payments' },
  { path: 'errorreporting', label: 'Error reporting', view: ErrorReporting, service: 'errorreporting' },
  { path: 'bidding', label: 'Bidding', view: Bidding, service: 'bidding' },
  { path: 'entities', label: 'Entities', view: Entities, service: 'entities' },
  { path: 'files', label: 'Files', view: Files, service: 'files' },
  { path: 'calendar', label: 'Calendar', view: Calendar, service: 'calendar' },
  { path: 'catalog', label: 'Catalog', view: Catalog, service: 'catalog' },
  { path: 'books', label: 'Books', view: Books, service: 'books' },
  { path: 'requests', label: 'Requests', view: Requests },
  { path: 'outbox', label: 'Outbox', view: Outbox },
  { path: 'jobs', label: 'Jobs', view: Jobs },
  { path: 'clock', label: 'Clock', view: Clock },
  { path: 'principals', label: 'Principals', view: Principals },
];

function route() {
  const [path = 'overview', ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  return { path, arg: rest.map(decodeURIComponent).join('/') };
}

function App() {
  const [where, setWhere] = useState(route());
  const [running, setRunning] = useState(null);
  const [clock, setClock] = useState(null);
  const main = useRef(null);
  useEffect(() => {
    const onHash = () => setWhere(route());
    addEventListener('hashchange', onHash);
    api('/console/api/services').then((r) => setRunning(new Set(r.services.map((s) => s.id))), () => setRunning(new Set()));
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    const read = () => api('/clock').then(setClock, () => undefined);
    read();
    const timer = setInterval(read, 5000);
    addEventListener('twinstack:clock', read);
    return () => {
      clearInterval(timer);
      removeEventListener('twinstack:clock', read);
    };
  }, []);
  // After navigation (not on the first load), focus moves to the new page's heading so keyboard and screen-reader
  // users land on it.
  const firstPath = useRef(where.path);
  useEffect(() => {
    if (where.path !== firstPath.current) main.current?.querySelector('h1')?.focus();
    firstPath.current = null;
  }, [where.path]);
  const pages = PAGES.filter((p) => !p.service || !running || running.has(p.service));
  const page = PAGES.find((p) => p.path === where.path) ?? PAGES[0];
  const View = page.view;
  return html`
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); main.current?.querySelector('h1')?.focus(); }}>Skip to content</a>
    <header class="top">
      <span class="brand">twinstack</span>
      <span class="clock">${clock ? html`<span class="visually-hidden">Domain time: </span>${clock.mode} clock · ${clock.now.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}` : ''}</span>
    </header>
    <div class="layout">
      <nav aria-label="Console">
        <ul>${pages.map((p) => html`<li><a href=${`#/${p.path}`} aria-current=${p === page ? 'page' : undefined}>${p.label}</a></li>`)}</ul>
      </nav>
      <main id="main" ref=${main}><${View} key=${page.path} arg=${where.arg} /></main>
    </div>`;
}

// The placeholder shown while modules load is replaced, not kept beside the console.
const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
