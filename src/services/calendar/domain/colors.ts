// The colour palette (colors.get): event colours 1-11 are what an event's colorId may name, calendar colours 1-24 what
// a calendar list entry's may.
const EVENT = ['#a4bdfc', '#7ae7bf', '#dbadff', '#ff887c', '#fbd75b', '#ffb878', '#46d6db', '#e1e1e1', '#5484ed', '#51b749', '#dc2127'];
const CALENDAR = ['#ac725e', '#d06b64', '#f83a22', '#fa573c', '#ff7537', '#ffad46', '#42d692', '#16a765', '#7bd148', '#b3dc6c', '#fbe983', '#fad165',
  '#92e1c0', '#9fe1e7', '#9fc6e7', '#4986e7', '#9a9cff', '#b99aff', '#c2c2c2', '#cabdbf', '#cca6ac', '#f691b2', '#cd74e6', '#a47ae2'];

const palette = (colors: string[], foreground: string) =>
  Object.fromEntries(colors.map((background, i) => [String(i + 1), { background, foreground }]));

export const EVENT_COLOR_IDS = EVENT.map((_, i) => String(i + 1));

/** Calendar colours 1-24: what a calendar list entry's colorId may name. */
export const CALENDAR_COLORS: Record<string, { background: string; foreground: string }> = palette(CALENDAR, '#1d1d1d');

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** The calendar colour id closest to an RGB colour (`#rrggbb`), as Calendar picks one for colorRgbFormat writes. */
export function nearestCalendarColor(hex: string): string {
  const [r, g, b] = rgb(hex);
  let best = '1';
  let bestDistance = Infinity;
  for (const [id, c] of Object.entries(CALENDAR_COLORS)) {
    const [cr, cg, cb] = rgb(c.background);
    const d = (r - cr) ** 2 + (g - cg) ** 2 + (b - cb) ** 2;
    if (d < bestDistance) [best, bestDistance] = [id, d];
  }
  return best;
}

export function colorsResource(updated: string): Record<string, unknown> {
  return { kind: 'calendar#colors', updated, calendar: palette(CALENDAR, '#1d1d1d'), event: palette(EVENT, '#1d1d1d') };
}
