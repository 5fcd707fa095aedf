// The gateway core under load: a frictionless 3-D Secure authorisation and a charge of a stored card by token.
// Every request carries a fresh API key (keys are accepted once) and a fresh identifier (duplicates are refused), made
// in the load generator's process.
import { randomBytes } from 'node:crypto';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { gatewayOf } from '../../src/services/payments/gateway.ts';
import { DEV_CLIENT_ID, DEV_MERCHANT_ID } from '../../src/services/payments/settings.ts';
import type { BenchEnv, BenchRequest, BenchScenario, RequestFactory } from '../scenario.ts';

/** The development client's licence key, as the gateway reads it. */
export async function devLicenceKey(env: BenchEnv): Promise<string> {
  const licence = await gatewayOf(env.rt.services.get('payments')!.ctx).clients.licenceKeyOf(DEV_CLIENT_ID);
  if (!licence) throw new Error(`no licence key for the development payments client ${DEV_CLIENT_ID}`);
  return licence;
}

/** A fresh key of the development client, signed for the current minute (the bench runs on the system clock). */
export const freshKey = (licence: string) => makeApiKey(DEV_CLIENT_ID, licence, randomBytes(16), Date.now());

/**
 * Rewrites each POST with a fresh key and, given a `prefix`, `body` with a fresh identifier (runs in the load
 * generator); without one the body goes as is.
 */
export const signedPosts: RequestFactory = ({ licence, body, prefix }: { licence: string; body: Record<string, unknown>; prefix?: string }) => {
  let n = 0;
  const fixed = JSON.stringify(body);
  return (req) => ({
    ...req,
    headers: { ...req.headers, 'pay-api-key': freshKey(licence) },
    body: prefix === undefined ? fixed : JSON.stringify({ ...body, identifier: `${prefix}-${process.pid}-${n++}` }),
  });
};

/** One POST whose key (and, given a `prefix`, identifier) changes on every request. */
export function signedPost(path: string, licence: string, body: Record<string, unknown>, prefix?: string): BenchRequest {
  return { method: 'POST', path, headers: { 'content-type': 'application/json' }, computedBy: { module: import.meta.url, factory: 'signedPosts', args: { licence, body, prefix } } };
}

export const scenarios: BenchScenario[] = [
  {
    name: 'payments.authorise-frictionless',
    service: 'payments',
    async setup(env) {
      const licence = await devLicenceKey(env);
      const request = signedPost('/v6/authorise', licence, {
        amount: 1999,
        cardnumber: '4000000000000002',
        expmonth: 12,
        expyear: 2035,
        csc: '750',
        merchantid: DEV_MERCHANT_ID,
        threedsecure: { merchant_termurl: 'https://shop.example/return' },
      }, 'AUTH');
      return { requests: [request] };
    },
  },
  {
    name: 'payments.charge-token',
    service: 'payments',
    async setup(env) {
      const licence = await devLicenceKey(env);
      const base = env.url('payments');
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'pay-api-key': freshKey(licence) }, body: JSON.stringify(body) });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<any>;
      };
      const account = `bench-${process.pid}-${Date.now()}`;
      await post('/v6/account/create', { account_id: account });
      const view = await post(`/v6/account/${account}/register`, { cardnumber: '5100000000000008', expmonth: 12, expyear: 2035 });
      const token = view.cards[0].token as string;
      return { requests: [signedPost('/v6/charge', licence, { token, amount: 990, merchantid: DEV_MERCHANT_ID }, 'CHG')] };
    },
  },
];
