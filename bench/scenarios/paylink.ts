// Paylink: token creation by the development client, each request with a fresh API key (keys are accepted once)
// and a fresh identifier.
import { randomBytes } from 'node:crypto';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { DEV_CLIENT_ID, DEV_MERCHANT_ID } from '../../src/services/payments/settings.ts';
import type { BenchEnv, BenchScenario } from '../scenario.ts';

/** The development client's licence key, read back the way the gateway reads it. */
async function devLicenceKey(env: BenchEnv): Promise<string> {
  const identity = env.rt.identity;
  const credential = (await identity.listCredentials(DEV_CLIENT_ID)).filter((c) => c.type === 'licence_key').at(-1);
  const key = credential ? await identity.secretOf(credential.id) : undefined;
  if (!key) throw new Error(`no licence key for the development payments client ${DEV_CLIENT_ID}`);
  return key;
}

export const scenarios: BenchScenario[] = [
  {
    name: 'paylink.create',
    service: 'payments',
    async setup(env) {
      const licence = await devLicenceKey(env);
      let n = 0;
      return {
        requests: [
          {
            method: 'POST',
            path: '/paylink/create',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req: any) => ({
              ...req,
              headers: { ...req.headers, 'pay-api-key': makeApiKey(DEV_CLIENT_ID, licence, randomBytes(16), env.rt.clock.now()) },
              body: JSON.stringify({ amount: 1000 + (n % 9000), identifier: `BENCH-${process.pid}-${n++}`, merchantid: DEV_MERCHANT_ID, config: { expire_in: '1h' } }),
            }),
          },
        ],
      };
    },
  },
];
