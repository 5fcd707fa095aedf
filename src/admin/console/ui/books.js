// Books: search the library; every user's bookshelves with their volumes.
import { useState } from 'preact/hooks';
import { api, html, Loaded, Page, Table, useLoad } from './lib.js';

const SHELVES = { 0: 'Favorites', 1: 'Purchased', 2: 'To read', 3: 'Reading now', 4: 'Have read', 5: 'Reviewed', 6: 'Recently viewed', 7: 'My eBooks', 8: 'Books for you', 9: 'Browsing history' };

export function Books() {
  const shelves = useLoad(() => api('/console/api/books/shelves'));
  const [query, setQuery] = useState('');
  const [found, setFound] = useState({ result: null, error: null });
  const search = async (e) => {
    e.preventDefault();
    if (!query.trim()) return;
    try {
      setFound({ result: await api(`/console/api/books/search?${new URLSearchParams({ q: query })}`), error: null });
    } catch (err) {
      setFound({ result: null, error: err.message });
    }
  };
  return html`<${Page} title="Books">
    <form role="search" onSubmit=${search}>
      <label for="book-query">Search books</label>
      <input id="book-query" type="search" value=${query} onInput=${(e) => setQuery(e.currentTarget.value)} />
      <button type="submit">Search</button>
    </form>
    ${found.error ? html`<p class="error" role="alert">${found.error}</p>` : null}
    ${found.result ? html`<${Table} caption=${`Search results (${found.result.totalItems} in all)`} columns=${['Title', 'Authors', 'Published', 'Language', 'Id']} rows=${found.result.volumes} empty="no match."
      cells=${(v) => [v.title, v.authors.join(', '), v.published ?? '', v.language ?? '', html`<code>${v.id}</code>`]} />` : null}
    <h2>Bookshelves</h2>
    <${Loaded} state=${shelves}>${({ shelves: list }) => html`<${Table} caption="Shelves per user" columns=${['User', 'Shelf', 'Access', 'Volumes']} rows=${list} empty="No shelves in use."
      cells=${(s) => [s.user, SHELVES[s.shelf] ?? s.shelf, s.access, s.volumes.length ? s.volumes.join(', ') : '0']} />`}<//>
  <//>`;
}
