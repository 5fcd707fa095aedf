// settings.list, settings.get and settings.watch.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { authenticate } from '../access.ts';
import type { Query } from '../domain/params.ts';
import { settingsTopic } from '../watches.ts';
import type { CalendarService } from '../wiring.ts';
import { WatchChannelBody } from '../../../core/google/watch-channel-schema.ts';
import { SettingParams, SystemQuery } from './schemas/common.ts';
import { SettingsListQuery } from './schemas/settings.ts';

const BASE = '/calendar/v3/users/me/settings';

export function settingsRoutes(app: FastifyInstance, ctx: ServiceContext, s: CalendarService): void {
  app.get(BASE, documented({ querystring: SettingsListQuery }), async (req) => s.settings.list(await authenticate(req, ctx, 'read'), req.query as Query));
  app.get(`${BASE}/:setting`, documented({ params: SettingParams, querystring: SystemQuery }), async (req: FastifyRequest) => s.settings.get(await authenticate(req, ctx, 'read'), (req.params as { setting: string }).setting));
  app.post(`${BASE}/watch`, documented({ querystring: SystemQuery, body: WatchChannelBody }), async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    return ctx.db.write((tx) => s.watches.open(tx, caller, settingsTopic(caller.email), '/users/me/settings', req.body));
  });
}
