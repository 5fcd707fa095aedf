// The four policy fields: a request value of '1'..'3' wins, '0' or absent falls back to the merchant's default.
import type { Merchant, PolicyValue } from '../contract.ts';

export const POLICY_VALUES = ['0', '1', '2', '3'] as const;

export interface EffectivePolicies {
  avs_postcode: Exclude<PolicyValue, '0'>;
  csc: Exclude<PolicyValue, '0'>;
  duplicate: Exclude<PolicyValue, '0'>;
  match_avsa: Exclude<PolicyValue, '0'>;
}

const pick = (requested: PolicyValue | undefined, fallback: PolicyValue): Exclude<PolicyValue, '0'> => {
  if (requested && requested !== '0') return requested;
  return fallback === '0' ? '2' : fallback;
};

export function effectivePolicies(
  merchant: Pick<Merchant, 'policies'>,
  req: { avs_postcode_policy?: PolicyValue; csc_policy?: PolicyValue; duplicate_policy?: PolicyValue; match_avsa?: PolicyValue },
): EffectivePolicies {
  return {
    avs_postcode: pick(req.avs_postcode_policy, merchant.policies.avs_postcode),
    csc: pick(req.csc_policy, merchant.policies.csc),
    duplicate: pick(req.duplicate_policy, merchant.policies.duplicate),
    match_avsa: pick(req.match_avsa, merchant.policies.match_avsa),
  };
}
