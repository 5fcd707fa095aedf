// One set of the service's objects per context (the routes and the job handler share them).
import { WatchChannels } from '../../core/google/watch-channels.ts';
import { Calendars } from './access.ts';
import { CalendarList } from './calendar-list.ts';
import { CalendarAdmin } from './calendars.ts';
import { Events } from './events.ts';
import { FreeBusy } from './freebusy.ts';
import { Invitations } from './invitations.ts';
import { Reader } from './reader.ts';
import { Settings } from './settings.ts';
import { CalendarStore } from './store.ts';
import { ResourceWatches } from './watches.ts';
import { onePerContext } from '../../core/per-context.ts';

export interface CalendarService {
  store: CalendarStore;
  calendars: Calendars;
  admin: CalendarAdmin;
  calendarList: CalendarList;
  events: Events;
  reader: Reader;
  freeBusy: FreeBusy;
  settings: Settings;
  watch: WatchChannels;
  watches: ResourceWatches;
}

export const serviceOf = onePerContext((ctx): CalendarService => {
  const store = new CalendarStore();
  const calendars = new Calendars(ctx, store);
  const watch = new WatchChannels(ctx.outbox, ctx.clock);
  const reader = new Reader(ctx, store);
  const watches = new ResourceWatches(ctx, watch, calendars);
  return {
    store,
    calendars,
    admin: new CalendarAdmin(ctx, store, calendars, watches),
    calendarList: new CalendarList(ctx, store, calendars, watches),
    events: new Events(ctx, store, calendars, watches, new Invitations(ctx)),
    reader,
    freeBusy: new FreeBusy(ctx, store, calendars, reader),
    settings: new Settings(calendars),
    watch,
    watches,
  };
});
