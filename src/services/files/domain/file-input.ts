// The writable fields of a File resource in an insert, update, patch or copy body. Read-only fields a client sends
// back (a whole resource from an earlier get) are ignored, as Drive does; a writable field of the wrong type or
// size is a 400 naming it.
import { invalidValue } from '../errors.ts';
import { normaliseMime } from './mime.ts';
import { readPropertyInput, type PropertyInput } from './properties.ts';

export const MAX_TITLE = 32_767;
export const MAX_DESCRIPTION = 65_536;
export const MAX_INDEXABLE_TEXT = 128 * 1024;

export interface FilePatch {
  id?: string;
  title?: string;
  mimeType?: string;
  description?: string | null;
  starred?: boolean;
  hidden?: boolean;
  restricted?: boolean;
  trashed?: boolean;
  parents?: string[];
  properties?: PropertyInput[];
  modifiedDate?: number;
  lastViewedByMeDate?: number;
  writersCanShare?: boolean;
  copyRequiresWriterPermission?: boolean;
  indexableText?: string;
  originalFilename?: string;
  folderColorRgb?: string;
  /** `shortcutDetails.targetId` (its other fields are output only). */
  shortcutTargetId?: string;
}

export function readFilePatch(body: unknown): FilePatch {
  if (body === undefined || body === null || (typeof body === 'string' && body === '')) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidValue('resource', 'The request body must be a File resource (a JSON object).');
  const b = body as Record<string, unknown>;
  const out: FilePatch = {};
  const str = (key: string, max: number): string | undefined => {
    const v = b[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw invalidValue(key, `Invalid value for ${key}: expected a string.`);
    if (v.length > max) throw invalidValue(key, `The value of ${key} is too long (at most ${max} characters).`);
    return v;
  };
  const flag = (source: Record<string, unknown>, key: string, location = key): boolean | undefined => {
    const v = source[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') throw invalidValue(location, `Invalid value for ${location}: expected a boolean.`);
    return v;
  };
  const date = (key: string): number | undefined => {
    const v = str(key, 64);
    if (v === undefined) return undefined;
    const ms = Date.parse(v);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(v) || Number.isNaN(ms)) throw invalidValue(key, `Invalid value for ${key}: ${v} is not an RFC 3339 date-time.`);
    return ms;
  };

  const id = str('id', 128);
  if (id !== undefined) out.id = id;
  const title = str('title', MAX_TITLE);
  if (title !== undefined) out.title = title;
  const mime = str('mimeType', 255);
  if (mime !== undefined) {
    const bare = normaliseMime(mime);
    if (!bare) throw invalidValue('mimeType', `Invalid MIME type: ${mime}`);
    out.mimeType = bare;
  }
  if (b.description === null) out.description = null;
  else {
    const d = str('description', MAX_DESCRIPTION);
    if (d !== undefined) out.description = d;
  }
  if (b.labels !== undefined && b.labels !== null) {
    if (typeof b.labels !== 'object' || Array.isArray(b.labels)) throw invalidValue('labels', 'Invalid value for labels: expected an object.');
    const labels = b.labels as Record<string, unknown>;
    out.starred = flag(labels, 'starred', 'labels.starred');
    out.hidden = flag(labels, 'hidden', 'labels.hidden');
    out.restricted = flag(labels, 'restricted', 'labels.restricted');
    out.trashed = flag(labels, 'trashed', 'labels.trashed');
    flag(labels, 'viewed', 'labels.viewed');
    for (const k of ['starred', 'hidden', 'restricted', 'trashed'] as const) if (out[k] === undefined) delete out[k];
  }
  if (b.parents !== undefined && b.parents !== null) {
    if (!Array.isArray(b.parents)) throw invalidValue('parents', 'Invalid value for parents: expected a list of parent references.');
    out.parents = b.parents.map((p, i) => {
      const pid = p && typeof p === 'object' ? (p as { id?: unknown }).id : undefined;
      if (typeof pid !== 'string' || pid === '' || pid.length > 128) throw invalidValue(`parents[${i}].id`, `Invalid value for parents[${i}].id`);
      return pid;
    });
  }
  if (b.properties !== undefined && b.properties !== null) {
    if (!Array.isArray(b.properties)) throw invalidValue('properties', 'Invalid value for properties: expected a list.');
    out.properties = b.properties.map((p, i) => readPropertyInput(p, `properties[${i}]`, true));
  }
  const modified = date('modifiedDate');
  if (modified !== undefined) out.modifiedDate = modified;
  const viewed = date('lastViewedByMeDate');
  if (viewed !== undefined) out.lastViewedByMeDate = viewed;
  const wcs = flag(b, 'writersCanShare');
  if (wcs !== undefined) out.writersCanShare = wcs;
  const crwp = flag(b, 'copyRequiresWriterPermission');
  if (crwp !== undefined) out.copyRequiresWriterPermission = crwp;
  if (b.indexableText !== undefined && b.indexableText !== null) {
    const t = (b.indexableText as { text?: unknown }).text;
    if (typeof b.indexableText !== 'object' || (t !== undefined && typeof t !== 'string')) throw invalidValue('indexableText', 'Invalid value for indexableText.');
    if (typeof t === 'string') {
      if (t.length > MAX_INDEXABLE_TEXT) throw invalidValue('indexableText.text', 'indexableText.text is too long.');
      out.indexableText = t;
    }
  }
  const original = str('originalFilename', MAX_TITLE);
  if (original !== undefined) out.originalFilename = original;
  const color = str('folderColorRgb', 7);
  if (color !== undefined) {
    if (!/^#[0-9a-fA-F]{6}$/.test(color)) throw invalidValue('folderColorRgb', `Invalid value for folderColorRgb: ${color}`);
    out.folderColorRgb = color.toLowerCase();
  }
  if (b.shortcutDetails !== undefined && b.shortcutDetails !== null) {
    if (typeof b.shortcutDetails !== 'object' || Array.isArray(b.shortcutDetails)) throw invalidValue('shortcutDetails', 'Invalid value for shortcutDetails: expected an object.');
    const target = (b.shortcutDetails as { targetId?: unknown }).targetId;
    if (target !== undefined && target !== null) {
      if (typeof target !== 'string' || target === '' || target.length > 128) throw invalidValue('shortcutDetails.targetId', 'Invalid value for shortcutDetails.targetId');
      out.shortcutTargetId = target;
    }
  }
  return out;
}
