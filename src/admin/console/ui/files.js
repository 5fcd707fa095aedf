// Files: each user's root and shared drive as a folder tree; a file's details, preview, download, revisions and
// permissions.
import { useState } from 'preact/hooks';
import { api, formatTime, html, Loaded, Page, Table, TreeBranch, useLoad } from './lib.js';

const PREVIEWABLE_TEXT = /^(text\/|application\/(json|xml|javascript|x-yaml|csv))/;
const PREVIEWABLE_IMAGE = /^image\/(png|jpeg|gif|webp)$/;

export function Files() {
  const roots = useLoad(() => api('/console/api/files/roots'));
  const [file, setFile] = useState(null);
  return html`<${Page} title="Files" actions=${html`<button type="button" onClick=${roots.reload}>Refresh</button>`}>
    <div class="split">
      <${Loaded} state=${roots}>${({ roots: list }) => list.length === 0 ? html`<p class="muted">No files yet.</p>` : html`<ul class="tree" aria-label="Folders">
        ${list.map((r) => html`<${FolderNode} key=${r.id} id=${r.id} label=${r.label} onOpen=${setFile} />`)}
      </ul>`}<//>
      <div class="detail">${file ? html`<${FileDetail} key=${file} id=${file} />` : html`<p class="muted">Choose a file in the tree.</p>`}</div>
    </div>
  <//>`;
}

function FolderNode({ id, label, onOpen }) {
  const load = async () => (await api(`/console/api/files/children?${new URLSearchParams({ id })}`)).children;
  const renderChildren = (children) =>
    children.map((c) => c.folder
      ? html`<${FolderNode} key=${c.id} id=${c.id} label=${`${c.title}${c.trashed ? ' (trashed)' : ''}`} onOpen=${onOpen} />`
      : html`<li><button type="button" class="link" onClick=${() => onOpen(c.id)}>${c.title}${c.trashed ? ' (trashed)' : ''}</button></li>`);
  return html`<${TreeBranch} label=${label} load=${load} renderChildren=${renderChildren} />`;
}

function FileDetail({ id }) {
  const state = useLoad(() => api(`/console/api/files/file?${new URLSearchParams({ id })}`), [id]);
  const content = (extra = {}) => `/console/api/files/content?${new URLSearchParams({ id, ...extra })}`;
  return html`<article aria-label="File">
    <${Loaded} state=${state}>${(f) => html`
      <h2>${f.title}</h2>
      <dl class="kv">
        <dt>Type</dt><dd>${f.mimeType}</dd><dt>Owner</dt><dd>${f.owner ?? ''}</dd>
        <dt>Size</dt><dd>${f.size ?? ''}</dd><dt>Modified</dt><dd>${formatTime(f.modifiedAt)}</dd>
        ${f.md5 ? html`<dt>MD5</dt><dd><code>${f.md5}</code></dd>` : null}
      </dl>
      ${f.headRevisionId ? html`<p><a href=${content()} download=${f.title}>Download</a></p>` : null}
      ${f.headRevisionId && PREVIEWABLE_IMAGE.test(f.mimeType) ? html`<img class="preview" src=${content()} alt=${`Preview of ${f.title}`} />` : null}
      ${f.headRevisionId && PREVIEWABLE_TEXT.test(f.mimeType) ? html`<${TextPreview} url=${content({ preview: 'true' })} />` : null}
      <${Table} caption="Revisions" columns=${['Id', 'Type', 'Modified', 'By', 'Kept', '']} rows=${f.revisions} empty="No stored revisions."
        cells=${(r) => [html`<code>${r.id}</code>`, r.mimeType, formatTime(r.modifiedAt), r.modifiedBy ?? '', r.pinned ? 'forever' : '', html`<a href=${content({ revision: r.id })} download="">Download</a>`]} />
      <${Table} caption="Permissions" columns=${['Type', 'Role', 'Grantee', 'With link', 'Expires']} rows=${f.permissions}
        cells=${(p) => [p.type, p.role, p.grantee, p.withLink ? 'yes' : '', formatTime(p.expiresAt)]} />`}<//>
  </article>`;
}

function TextPreview({ url }) {
  const state = useLoad(async () => {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`preview: ${res.status}`);
    return res.text();
  }, [url]);
  return html`<${Loaded} state=${state}>${(text) => html`<pre class="preview" aria-label="Preview">${text}</pre>`}<//>`;
}
