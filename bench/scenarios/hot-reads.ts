// The hot reads the speed goal names besides the KV read: a filter set, an error group, an entity by id and a payment
// retrieved by its identifier. Each reads one small record that exists (created through the API first).
import type { BenchEnv, BenchScenario } from '../scenario.ts';
import { DEV_MERCHANT_ID } from '../../src/services/payments/settings.ts';
import { devLicenceKey, freshKey, signedPost } from './payments.ts';

const API_KEY = 'bench-dev-api-key';
const DEV_TOKEN = 'bench-dev-token';
const BIDDER = { authorization: 'Bearer bidding-demo-bidder-token' };

async function ok(res: Response, what: string): Promise<any> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** An error group with one event in it, and its id as groupStats reports it. */
async function errorGroup(env: BenchEnv): Promise<string> {
  const base = env.url('errorreporting');
  await ok(
    await fetch(`${base}/v1beta1/projects/bench-hot/events:report?key=${API_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ serviceContext: { service: 'web' }, message: 'TypeError: hot read\n    at get (/srv/app/get.js:1:1)' }),
    }),
    'report',
  );
  const stats = await ok(await fetch(`${base}/v1beta1/projects/bench-hot/groupStats?timeRange.period=PERIOD_1_DAY`, { headers: { authorization: `Bearer ${DEV_TOKEN}` } }), 'groupStats');
  return stats.errorGroupStats[0].group.groupId as string;
}

export const scenarios: BenchScenario[] = [
  {
    name: 'bidding.filterSets.get',
    service: 'bidding',
    async setup(env) {
      const name = 'bidders/1000/filterSets/bench-hot-get';
      await ok(
        await fetch(`${env.url('bidding')}/v2beta1/bidders/1000/filterSets`, {
          method: 'POST',
          headers: { ...BIDDER, 'content-type': 'application/json' },
          body: JSON.stringify({ name, relativeDateRange: { durationDays: 7 } }),
        }),
        'filterSets.create',
      );
      return { headers: BIDDER, requests: [{ path: `/v2beta1/${name}` }] };
    },
  },
  {
    name: 'errorreporting.groups.get',
    service: 'errorreporting',
    async setup(env) {
      const groupId = await errorGroup(env);
      return { headers: { authorization: `Bearer ${DEV_TOKEN}` }, requests: [{ path: `/v1beta1/projects/bench-hot/groups/${groupId}` }] };
    },
  },
  {
    name: 'entities.get-by-id',
    service: 'entities',
    async setup(env) {
      const found = await ok(await fetch(`${env.url('entities')}/v1/entities:search?key=${API_KEY}&query=paris&limit=1`), 'entities.search');
      const id = encodeURIComponent(found.itemListElement[0].result['@id'].replace(/^kg:/, ''));
      return { requests: [{ path: `/v1/entities:search?key=${API_KEY}&ids=${id}` }] };
    },
  },
  {
    name: 'payments.retrieve',
    service: 'payments',
    async setup(env) {
      const licence = await devLicenceKey(env);
      const identifier = `HOT-${process.pid}-${Date.now()}`;
      await ok(
        await fetch(`${env.url('payments')}/v6/authorise`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'pay-api-key': freshKey(licence) },
          body: JSON.stringify({ amount: 500, cardnumber: '4000000000000002', expmonth: 12, expyear: 2035, csc: '750', identifier, merchantid: DEV_MERCHANT_ID, threedsecure: { merchant_termurl: 'https://shop.example/return' } }),
        }),
        'authorise',
      );
      // The key changes on every request (a key is accepted once); the identifier stays.
      return { requests: [signedPost('/v6/retrieve', licence, { merchantid: DEV_MERCHANT_ID, identifier })] };
    },
  },
];
