// The gateway core under load: a frictionless 3-D Secure authorisation and a charge of a stored card by token.
// Every request carries a fresh API key (keys are accepted once) and a fresh identifier (duplicates are refused).
import { randomBytes } from 'node:crypto';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { gatewayOf } from '../../src/services/payments/gateway.ts';
import { DEV_CLIENT_ID, DEV_MERCHANT_ID } from '../../src/services/payments/settings.ts';
import type { BenchEnv, BenchRequest, BenchScenario } from '../scenario.ts';

export async function signer(env: BenchEnv): Promise<() => string> {
  const licence = await gatewayOf(env.rt.services.get('payments')!.ctx).clients.licenceKeyOf(DEV_CLIENT_ID);
  if (!licence) throw new Error(`no licence key for the development payments client ${DEV_CLIENT_ID}`);
  return () => makeApiKey(DEV_CLIENT_ID, licence, randomBytes(16), env.rt.clock.now());
}

/** One POST whose key and identifier change on every request. */
export function signedPost(path: string, key: () => string, body: (identifier: string) => Record<string, unknown>, prefix: string): BenchRequest {
  let n = 0;
  return {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    setupRequest: (req: any) => ({
      ...req,
      headers: { ...req.headers, 'pay-api-key': key() },
      body: JSON.stringify(body(`${prefix}-${process.pid}-${n++}`)),
    }),
  };
}

export const scenarios: BenchScenario[] = [
  {
    name: 'payments.authorise-frictionless',
    service: 'payments',
    async setup(env) {
      const key = await signer(env);
      const request = signedPost('/v6/authorise', key, (identifier) => ({
        amount: 1999,
        cardnumber: '4000000000000002',
        expmonth: 12,
        expyear: 2035,
        csc: '750',
        identifier,
        merchantid: DEV_MERCHANT_ID,
        threedsecure: { merchant_termurl: 'https://shop.example/return' },
      }), 'AUTH');
      return { requests: [request] };
    },
  },
  {
    name: 'payments.charge-token',
    service: 'payments',
    async setup(env) {
      const key = await signer(env);
      const base = env.url('payments');
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'pay-api-key': key() }, body: JSON.stringify(body) });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<any>;
      };
      const account = `bench-${process.pid}-${Date.now()}`;
      await post('/v6/account/create', { account_id: account });
      const view = await post(`/v6/account/${account}/register`, { cardnumber: '5100000000000008', expmonth: 12, expyear: 2035 });
      const token = view.cards[0].token as string;
      return { requests: [signedPost('/v6/charge', key, (identifier) => ({ token, amount: 990, identifier, merchantid: DEV_MERCHANT_ID }), 'CHG')] };
    },
  },
];
