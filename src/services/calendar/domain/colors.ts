// The colour palette (colors.get): event colours 1-11 are what an event's colorId may name.
const EVENT = ['#a4bdfc', '#7ae7bf', '#dbadff', '#ff887c', '#fbd75b', '#ffb878', '#46d6db', '#e1e1e1', '#5484ed', '#51b749', '#dc2127'];
const CALENDAR = ['#ac725e', '#d06b64', '#f83a22', '#fa573c', '#ff7537', '#ffad46', '#42d692', '#16a765', '#7bd148', '#b3dc6c', '#fbe983', '#fad165',
  '#92e1c0', '#9fe1e7', '#9fc6e7', '#4986e7', '#9a9cff', '#b99aff', '#c2c2c2', '#cabdbf', '#cca6ac', '#f691b2', '#cd74e6', '#a47ae2'];

const palette = (colors: string[], foreground: string) =>
  Object.fromEntries(colors.map((background, i) => [String(i + 1), { background, foreground }]));

export const EVENT_COLOR_IDS = EVENT.map((_, i) => String(i + 1));

export function colorsResource(updated: string): Record<string, unknown> {
  return { kind: 'calendar#colors', updated, calendar: palette(CALENDAR, '#1d1d1d'), event: palette(EVENT, '#1d1d1d') };
}
