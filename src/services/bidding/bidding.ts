// What every part of the service shares: the store, the accounts and the settings, built once per context.
import { cacheBudgetOf } from '../../core/cache.ts';
import { isTimeZone, zoneOffsetMs } from '../../core/time.ts';
import type { ServiceContext } from '../../core/service.ts';
import { Value } from '@sinclair/typebox/value';
import { Accounts } from './accounts.ts';
import { Settings } from './schemas.ts';
import { BiddingStore, DEFAULT_FILTER_SET_CACHE_BUDGET } from './store.ts';
import { onePerContext } from '../../core/per-context.ts';

export const DEFAULT_TIME_ZONE = 'America/Los_Angeles';

export interface Bidding {
  ctx: ServiceContext;
  store: BiddingStore;
  accounts: Accounts;
  settings: Settings;
  timeZone: string;
  keepEvents: boolean;
}

/** The service's shared parts for `ctx`; throws on invalid settings (a configuration error at start). */
export const biddingOf = onePerContext((ctx): Bidding => {
  if (!Value.Check(Settings, ctx.settings)) {
    const first = [...Value.Errors(Settings, ctx.settings)][0];
    throw new Error(`services.bidding settings are invalid: ${first?.path || '/'} ${first?.message ?? ''}`.trim());
  }
  const settings = ctx.settings as Settings;
  const timeZone = settings.timeZone ?? DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone)) throw new Error(`services.bidding.timeZone is not a known time zone: ${timeZone}`);
  // Days are assembled from UTC hours of the aggregates: a zone must be a whole number of hours from UTC.
  const year = new Date(ctx.clock.now()).getUTCFullYear();
  if ([0, 6].some((month) => zoneOffsetMs(timeZone, Date.UTC(year, month, 1)) % 3_600_000 !== 0)) {
    throw new Error(`services.bidding.timeZone must be a whole number of hours from UTC: ${timeZone}`);
  }
  return { ctx, store: new BiddingStore(ctx.db, cacheBudgetOf(settings.filterSetCacheBudget, DEFAULT_FILTER_SET_CACHE_BUDGET, 'services.bidding.filterSetCacheBudget')), accounts: new Accounts(ctx), settings, timeZone, keepEvents: settings.keepEvents ?? true };
});
