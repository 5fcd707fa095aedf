// Paylink: token creation by the development client, each request with a fresh API key (keys are accepted once)
// and a fresh identifier.
import { DEV_MERCHANT_ID } from '../../src/services/payments/settings.ts';
import type { BenchScenario } from '../scenario.ts';
import { devLicenceKey, signedPost } from './payments.ts';

export const scenarios: BenchScenario[] = [
  {
    name: 'paylink.create',
    service: 'payments',
    async setup(env) {
      const licence = await devLicenceKey(env);
      return { requests: [signedPost('/paylink/create', licence, { amount: 1000, merchantid: DEV_MERCHANT_ID, config: { expire_in: '1h' } }, 'BENCH')] };
    },
  },
];
