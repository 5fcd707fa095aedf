// What each service accepts as a caller, and its wrong and missing variants: the fuzzer sends all three, so a
// request reaches the handlers (valid) as often as it is turned away at the door (wrong, missing).
import { randomBytes } from 'node:crypto';
import type { ServiceId } from '../../src/core/service.ts';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { DEV_API_KEY, DEV_TOKEN } from '../helpers/runtime.ts';

export type CredentialKind = 'valid' | 'wrong' | 'missing';

export const FUZZ_ROOT_TOKEN = 'fuzz-root-token';
export const FUZZ_CLIENT = 'DEV001';
export const FUZZ_LICENCE = 'FUZZLICENCEKEY01';
const BIDDER_TOKEN = 'bidding-demo-bidder-token';

export interface Credential {
  headers: Array<[string, string]>;
  query: Array<[string, string]>;
}

export function credentialFor(service: ServiceId, kind: CredentialKind, now: number): Credential {
  if (kind === 'missing') return { headers: [], query: [] };
  const valid = kind === 'valid';
  switch (service) {
    case 'secrets':
      return { headers: [['x-vault-token', valid ? FUZZ_ROOT_TOKEN : 'hvs.not-a-token']], query: [] };
    case 'payments':
      return { headers: [['pay-api-key', makeApiKey(FUZZ_CLIENT, valid ? FUZZ_LICENCE : 'WRONGLICENCE0000', randomBytes(16), now)]], query: [] };
    case 'bidding':
      return { headers: [['authorization', `Bearer ${valid ? BIDDER_TOKEN : 'wrong-token'}`]], query: [] };
    default:
      // Google-style APIs take an API key in the query (read-only ones) or a bearer token; send both forms.
      return valid
        ? { headers: [['authorization', `Bearer ${DEV_TOKEN}`]], query: [['key', DEV_API_KEY]] }
        : { headers: [['authorization', 'Bearer ya29.wrong']], query: [['key', 'AIza-wrong']] };
  }
}
