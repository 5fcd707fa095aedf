// Reads the writable fields of a CalendarListEntry (calendarList.insert/update/patch) into the user's overlay.
import { own } from '../../../core/own.ts';
import type { ListOverlay } from '../store.ts';
import { arr, bool, obj, oneOf, only, str } from './check.ts';
import { CALENDAR_COLORS, nearestCalendarColor } from './colors.ts';
import { badRequest, requiredField } from './errors.ts';
import { readReminderList } from './input.ts';

const WRITABLE = ['summaryOverride', 'colorId', 'backgroundColor', 'foregroundColor', 'hidden', 'selected', 'defaultReminders', 'notificationSettings'] as const;
/** Sent back by clients that write what they read; ignored. */
const READ_ONLY = ['kind', 'etag', 'id', 'summary', 'description', 'location', 'timeZone', 'accessRole', 'primary', 'deleted', 'conferenceProperties', 'dataOwner'];
const NOTIFICATION_TYPES = ['eventCreation', 'eventChange', 'eventCancellation', 'eventResponse', 'agenda'] as const;
const HEX = /^#[0-9a-fA-F]{6}$/;

/** The colour of an entry the user never coloured. */
export const DEFAULT_COLOR_ID = '14';
export const DEFAULT_FOREGROUND = '#000000';

function hexColor(v: unknown, field: string): string {
  const s = str(v, field, 7);
  if (!HEX.test(s)) throw badRequest(`Invalid value for ${field}: a colour of the form #rrggbb is required.`, field);
  return s.toLowerCase();
}

function readNotifications(raw: unknown): NonNullable<ListOverlay['notificationSettings']> {
  const o = obj(raw, 'notificationSettings');
  only(o, ['notifications'], 'notificationSettings');
  const list = o.notifications === undefined || o.notifications === null ? [] : arr(o.notifications, 'notificationSettings.notifications', NOTIFICATION_TYPES.length);
  const seen = new Set<string>();
  const notifications = list.map((item, i) => {
    const at = `notificationSettings.notifications[${i}]`;
    const n = obj(item, at);
    only(n, ['type', 'method'], at);
    if (n.type === undefined) throw requiredField('Missing notification type.', `${at}.type`);
    if (n.method === undefined) throw requiredField('Missing notification method.', `${at}.method`);
    const type = oneOf(n.type, `${at}.type`, NOTIFICATION_TYPES);
    if (seen.has(type)) throw badRequest(`Duplicate notification type: ${type}`, `${at}.type`);
    seen.add(type);
    return { type, method: oneOf(n.method, `${at}.method`, ['email'] as const) };
  });
  return { notifications };
}

/**
 * The overlay after a write: `partial` (patch) keeps what the body leaves out, otherwise (insert, update) every
 * writable field not sent is cleared. RGB colours are written only with `colorRgbFormat`, and pick the closest colorId.
 */
export function readListEntry(body: unknown, base: ListOverlay, partial: boolean, rgbFormat: boolean): ListOverlay {
  const o = obj(body ?? {}, 'resource');
  only(o, [...WRITABLE, ...READ_ONLY], 'resource');
  const out: ListOverlay = partial ? { ...base } : {};
  const set = <K extends keyof ListOverlay>(key: K, read: (v: unknown) => ListOverlay[K]) => {
    if (o[key] === null) delete out[key];
    else if (o[key] !== undefined) out[key] = read(o[key]);
  };
  set('summaryOverride', (v) => str(v, 'summaryOverride', 1024));
  set('hidden', (v) => bool(v, 'hidden'));
  set('selected', (v) => bool(v, 'selected'));
  set('defaultReminders', (v) => readReminderList(v, 'defaultReminders'));
  set('notificationSettings', readNotifications);
  // Without colorRgbFormat the RGB fields are only what the client read back: ignored, as Calendar does.
  const rgbGiven = rgbFormat && (o.backgroundColor ?? o.foregroundColor) !== undefined && (o.backgroundColor ?? o.foregroundColor) !== null;
  if (rgbGiven) {
    set('backgroundColor', (v) => hexColor(v, 'backgroundColor'));
    set('foregroundColor', (v) => hexColor(v, 'foregroundColor'));
    out.backgroundColor ??= CALENDAR_COLORS[out.colorId ?? DEFAULT_COLOR_ID].background;
    out.foregroundColor ??= DEFAULT_FOREGROUND;
    out.colorId = nearestCalendarColor(out.backgroundColor);
  } else if (o.colorId !== undefined) {
    set('colorId', (v) => {
      // Only the palette's own ids: `constructor` is no colour even though a plain object answers to it.
      if (typeof v !== 'string' || own(CALENDAR_COLORS, v) === undefined) throw badRequest(`Invalid value for colorId: ${JSON.stringify(v)}.`, 'colorId');
      return v;
    });
    delete out.backgroundColor;
    delete out.foregroundColor;
  } else if (rgbFormat && (o.backgroundColor === null || o.foregroundColor === null)) {
    delete out.backgroundColor;
    delete out.foregroundColor;
  }
  return out;
}

/** The colours an entry shows: its RGB pair, else its colorId's palette colours, else the default. */
export function colorsOf(overlay: ListOverlay): { colorId: string; backgroundColor: string; foregroundColor: string } {
  const colorId = overlay.colorId ?? DEFAULT_COLOR_ID;
  const palette = CALENDAR_COLORS[colorId];
  return {
    colorId,
    backgroundColor: overlay.backgroundColor ?? palette.background,
    foregroundColor: overlay.foregroundColor ?? (overlay.colorId === undefined ? DEFAULT_FOREGROUND : palette.foreground),
  };
}
