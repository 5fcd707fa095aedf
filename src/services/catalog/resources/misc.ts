// Notification settings, quotas, recommendations and merchant support (issues rendered with actions).
import type { Catalog } from '../catalog.ts';
import { generateRecommendations } from '../domain/recommendations.ts';
import type { Product, ProductStatus } from '../domain/product-rules.ts';
import { randomNumericId } from '../ids.ts';
import type { Call, Operation } from '../layer/operation.ts';
import { listAnswer, pageArray, pageRequest } from '../layer/paging.ts';
import { STATUS_EVENT } from '../notifications.ts';
import { itemNotFound, statusOf } from '../products.ts';
import { quotaDay } from '../quota.ts';
import { claimWebsite } from '../routes/accounts.ts';
import { productIdOf } from '../routes/products.ts';
import { badRequest, oneOf, requireValue } from '../wire/rules.ts';
import { bodyObject, checkWire, readBody } from '../wire/validate.ts';
import { accountStatus } from './settings.ts';
import { Type } from '@sinclair/typebox';
import { PAGE_SIZE_PAGING } from '../schemas/common.ts';
import { wireBody } from '../schemas/wire.ts';

const INTERACTION_TYPES = ['INTERACTION_DISMISS', 'INTERACTION_CLICK'];

const TOPIC = /^projects\/[a-z][a-z0-9-]{4,28}[a-z0-9]\/topics\/[A-Za-z][\w.~+%-]{2,254}$/;

function pubsubOperations(): Operation[] {
  const read = async (cat: Catalog, merchantId: string) => ({ kind: 'content#pubsubNotificationSettings', ...((await cat.store.resource(merchantId, 'pubsubnotificationsettings', 'settings'))?.doc ?? {}) });
  return [
    { method: 'pubsubnotificationsettings.get', verb: 'GET', path: '/{merchantId}/pubsubnotificationsettings', scope: 'merchant', run: (cat, call) => read(cat, call.merchant.id) },
    {
      method: 'pubsubnotificationsettings.update',
      verb: 'PUT',
      path: '/{merchantId}/pubsubnotificationsettings',
      scope: 'merchant',
      request: {
        body: wireBody('PubsubNotificationSettings', {
          rules: {
            cloudTopicName: { description: 'projects/<project>/topics/<topic>, or an http(s) URL that receives the pushes; required when events are registered.' },
            registeredEvents: { enum: [STATUS_EVENT], description: 'Events to be notified of.' },
          },
        }),
      },
      async run(cat, call) {
        const doc = readBody(call.body, 'PubsubNotificationSettings', 'pubsubNotificationSettings');
        const events: string[] = doc.registeredEvents ?? [];
        events.forEach((e, i) => oneOf(e, [STATUS_EVENT], `pubsubNotificationSettings.registeredEvents[${i}]`));
        if (events.length > 0) requireValue(doc.cloudTopicName, 'pubsubNotificationSettings.cloudTopicName');
        if (doc.cloudTopicName !== undefined && !TOPIC.test(doc.cloudTopicName) && !/^https?:\/\/[^\s]+$/.test(doc.cloudTopicName)) {
          throw badRequest('pubsubNotificationSettings.cloudTopicName must be projects/<project>/topics/<topic> or an http(s) URL.');
        }
        await cat.write((s) => s.putResource(call.merchant.id, 'pubsubnotificationsettings', 'settings', doc, cat.now()));
        return { kind: 'content#pubsubNotificationSettings', ...doc };
      },
    },
  ];
}

function quotaOperations(methods: () => string[]): Operation[] {
  return [
    {
      method: 'quotas.list',
      verb: 'GET',
      path: '/{merchantId}/quotas',
      scope: 'merchant',
      request: { query: PAGE_SIZE_PAGING },
      async run(cat, call) {
        const req = pageRequest(call.query, 'pageSize', `quotas:${call.merchant.id}`);
        const usage = await cat.quota.usage(call.merchant.id, quotaDay(cat.now()));
        const page = pageArray(methods(), (m) => m, req);
        const quotas = page.items.map((method) => ({
          method,
          quotaUsage: String(usage.get(method) ?? 0),
          quotaLimit: String(cat.quota.limitOf(method)),
          quotaMinuteLimit: String(cat.quota.minuteLimit),
        }));
        return listAnswer('methodQuotas', quotas, req.token(page));
      },
    },
  ];
}

async function merchantData(cat: Catalog, merchantId: string) {
  const rows = await cat.allProducts(merchantId);
  const now = cat.now();
  return { products: rows.map((r) => r.doc as Product), statuses: rows.map((r) => statusOf(r, now) as ProductStatus) };
}

function recommendationOperations(): Operation[] {
  return [
    {
      method: 'recommendations.generate',
      verb: 'GET',
      path: '/{merchantId}/recommendations/generate',
      scope: 'merchant',
      request: {
        query: {
          allowedTag: Type.Optional(Type.Array(Type.String(), { description: 'Only recommendations of these types (repeat the parameter for several).' })),
          languageCode: Type.Optional(Type.String({ description: 'Language of the texts (accepted; texts are in English).' })),
        },
      },
      async run(cat, call) {
        const { products, statuses } = await merchantData(cat, call.merchant.id);
        const perf = await cat.ctx.db.heavyRead(cat.ctx.kysely.selectFrom('catalog_performance').select(['doc']).where('merchant_id', '=', call.merchant.id));
        const totals = new Map<string, { offerId: string; clicks: number; impressions: number }>();
        for (const r of perf as Array<{ doc: string }>) {
          const d = JSON.parse(r.doc);
          const t = totals.get(d.offerId) ?? { offerId: d.offerId, clicks: 0, impressions: 0 };
          t.clicks += d.clicks;
          t.impressions += d.impressions;
          totals.set(d.offerId, t);
        }
        const raw = call.query.allowedTag;
        const allowedTypes = raw === undefined ? undefined : (Array.isArray(raw) ? raw : [raw]).map(String);
        const recommendations = generateRecommendations(products, statuses, [...totals.values()], { allowedTypes });
        const responseToken = randomNumericId();
        await cat.write((s) => s.putResource(call.merchant.id, 'recommendationresponses', responseToken, { types: recommendations.map((r) => r.type) }, cat.now()));
        const out: Record<string, unknown> = { responseToken };
        if (recommendations.length) out.recommendations = recommendations;
        return out;
      },
    },
    {
      method: 'recommendations.reportInteraction',
      verb: 'POST',
      path: '/{merchantId}/recommendations/reportInteraction',
      scope: 'merchant',
      request: {
        body: wireBody('ReportInteractionRequest', {
          rules: {
            responseToken: { description: 'The responseToken of the generate call the recommendation came from.' },
            type: { description: 'Type of the recommendation interacted with.' },
            interactionType: { enum: INTERACTION_TYPES, description: 'What the user did.' },
          },
          required: ['responseToken', 'type', 'interactionType'],
        }),
      },
      async run(cat, call) {
        const body = readBody(call.body, 'ReportInteractionRequest', 'request', ['responseToken', 'type', 'interactionType']);
        oneOf(body.interactionType, INTERACTION_TYPES, 'interactionType');
        await cat.write(async (s) => {
          const response = await s.resource(call.merchant.id, 'recommendationresponses', body.responseToken);
          if (!response) throw badRequest(`Unknown responseToken ${body.responseToken}.`);
          if (!response.doc.types.includes(body.type)) throw badRequest(`The response ${body.responseToken} holds no recommendation of type ${body.type}.`);
          await s.putResource(call.merchant.id, 'recommendationinteractions', `${body.responseToken}:${body.type}:${cat.now()}`, body, cat.now());
        });
        return undefined;
      },
    },
  ];
}

// ---- merchant support

const SEVERITY: Record<string, string> = { critical: 'ERROR', error: 'ERROR', suggestion: 'INFO' };
const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const actionContext = (payload: Record<string, string>) => Buffer.from(JSON.stringify(payload)).toString('base64url');

function merchantSupportOperations(): Operation[] {
  const renderAccount: Operation = {
    method: 'merchantsupport.renderaccountissues',
    verb: 'POST',
    path: '/{merchantId}/merchantsupport/renderaccountissues',
    scope: 'merchant',
      request: { body: wireBody('RenderAccountIssuesRequestPayload') },
    async run(cat, call) {
      checkWire(bodyObject(call.body), 'RenderAccountIssuesRequestPayload', 'payload');
      const status = (await accountStatus(cat, call.merchant)) as { accountLevelIssues: Array<Record<string, string>> };
      const issues = status.accountLevelIssues.map((i) => ({
        title: i.title,
        impact: { message: i.detail, severity: SEVERITY[i.severity] ?? 'WARNING' },
        prerenderedContent: `<p>${escapeHtml(i.detail)}</p><p><a href="${escapeHtml(i.documentation)}">Learn more</a></p>`,
        actions:
          i.id === 'website_not_claimed'
            ? [{ buttonLabel: 'Claim website', isAvailable: true, builtinUserInputAction: { actionContext: actionContext({ action: 'claim_website', merchantId: call.merchant.id }), flows: [{ id: 'claim', label: 'Claim website', dialogTitle: 'Claim your website' }] } }]
            : i.id === 'missing_phone_verification'
              ? [{ buttonLabel: 'Verify phone', isAvailable: true, builtinSimpleAction: { type: 'VERIFY_PHONE' } }]
              : [{ buttonLabel: 'Learn more', isAvailable: true, externalAction: { type: 'REDIRECT_TO_MERCHANT_CENTER', uri: i.documentation } }],
      }));
      return issues.length ? { issues } : {};
    },
  };
  const renderProduct: Operation = {
    method: 'merchantsupport.renderproductissues',
    verb: 'POST',
    path: '/{merchantId}/merchantsupport/renderproductissues/{productId}',
    scope: 'merchant',
      request: { body: wireBody('RenderProductIssuesRequestPayload') },
    async run(cat, call) {
      checkWire(bodyObject(call.body), 'RenderProductIssuesRequestPayload', 'payload');
      const row = await cat.store.product(call.merchant.id, productIdOf(call));
      if (!row) throw itemNotFound();
      const status = statusOf(row, cat.now());
      const seen = new Set<string>();
      const issues = [];
      for (const i of status.itemLevelIssues ?? []) {
        if (seen.has(i.code)) continue;
        seen.add(i.code);
        issues.push({
          title: i.description,
          impact: { message: i.detail, severity: i.servability === 'disapproved' ? 'ERROR' : i.servability === 'demoted' ? 'WARNING' : 'INFO' },
          prerenderedContent: `<p>${escapeHtml(i.detail)}</p><p><a href="${escapeHtml(i.documentation)}">Learn more</a></p>`,
          actions: [{ buttonLabel: 'Edit item', isAvailable: true, builtinSimpleAction: { type: 'EDIT_ITEM_ATTRIBUTE', attributeCode: i.attributeName } }],
        });
      }
      return issues.length ? { issues } : {};
    },
  };
  const trigger: Operation = {
    method: 'merchantsupport.triggeraction',
    verb: 'POST',
    path: '/{merchantId}/merchantsupport/triggeraction',
    scope: 'merchant',
      request: {
        body: wireBody('TriggerActionPayload', {
          rules: { actionContext: { description: 'The actionContext of an action renderaccountissues offered.' } },
          required: ['actionContext', 'actionInput'],
        }),
      },
    async run(cat, call: Call) {
      const body = readBody(call.body, 'TriggerActionPayload', 'payload', ['actionContext', 'actionInput']);
      let context: { action?: string; merchantId?: string };
      try {
        context = JSON.parse(Buffer.from(String(body.actionContext), 'base64url').toString('utf8'));
      } catch {
        throw badRequest('actionContext is not one this API produced.');
      }
      // Valid JSON that is not an object (null, a number) is no context of ours either.
      if (typeof context !== 'object' || context === null) throw badRequest('actionContext is not one this API produced.');
      if (context.merchantId !== call.merchant.id) throw badRequest('actionContext belongs to another merchant.');
      if (context.action !== 'claim_website') throw badRequest('actionContext names no action that can be triggered.');
      await claimWebsite(cat, call.merchant, true);
      return { message: 'The website was claimed.' };
    },
  };
  return [renderAccount, renderProduct, trigger];
}

export function miscOperations(methods: () => string[]): Operation[] {
  return [...pubsubOperations(), ...quotaOperations(methods), ...recommendationOperations(), ...merchantSupportOperations()];
}

