// The sandbox acquirer: deterministic outcomes from the published amount and CSC triggers, AVS/CSC results that honour
// the effective policies, and the sandbox's fixed authorisation codes. Pure: no I/O, no clock.
import type { EffectivePolicies } from './policies.ts';

export interface AcquirerInput {
  amount: number;
  /** As sent; never stored. */
  csc?: string;
  /** 4 for Amex: the last three digits of its CSC count for the triggers. */
  cscLength: 3 | 4;
  policies: EffectivePolicies;
  postcode?: string;
  address1?: string;
  preAuth: boolean;
}

export interface AcquirerOutcome {
  authorised: boolean;
  /** AuthResponse.result: 1 accepted, 0 declined, 2 rejected, 4 referred. */
  result: number;
  result_code: string;
  result_message: string;
  authcode: string;
  avs_result: string;
  csc_result: string;
  /** O open for settlement, P pre-authorised, D declined, R rejected. */
  trans_status: 'O' | 'P' | 'D' | 'R';
}

export const AUTH_CODES = { sale: 'A12345', preauth: 'B12345', capture: 'C12345', refund: 'R12345', void: 'V12345' } as const;

type Trigger = { code: string; message: string; result: number; when?: (p: EffectivePolicies) => boolean };

// Amount or CSC (last three digits) selects the outcome; the conditional rows apply only when the check is enforced.
const TRIGGERS: Record<string, Trigger> = {
  '333': { code: '090', message: 'Declined by the card issuer', result: 0 },
  '344': { code: '095', message: 'AVS address failure', result: 0 },
  '355': { code: '096', message: 'AVS postcode failure', result: 0 },
  '366': { code: '094', message: 'CSC failure', result: 0 },
  '377': { code: '091', message: 'Fraud decline', result: 0 },
  '444': { code: '089', message: 'Referred: call the card issuer', result: 4 },
  '666': { code: 'F006', message: 'Fatal: upstream communication error', result: 2 },
  '544': { code: '095', message: 'AVS address failure', result: 0, when: (p) => p.match_avsa === '1' },
  '555': { code: '096', message: 'AVS postcode failure', result: 0, when: (p) => p.avs_postcode === '1' },
  '566': { code: '094', message: 'CSC failure', result: 0, when: (p) => p.csc === '1' },
};

const AMOUNT_TRIGGERS: Record<number, string> = {
  3333: '333', 3344: '344', 3355: '355', 3366: '366', 3377: '377', 4444: '444', 6666: '666', 5544: '544', 5555: '555', 5566: '566',
};

/** The CSC digits the sandbox reads: all of a 3-digit CSC, the last three of an Amex 4-digit one. */
export const cscKey = (csc: string | undefined): string | undefined => (csc === undefined ? undefined : csc.slice(-3));

const numericPart = (text: string | undefined): string | undefined => {
  if (text === undefined) return undefined;
  const digits = text.replace(/\D/g, '');
  return digits.length ? digits : undefined;
};

/** CSC check: M match, N no match (the sandbox fails 999), space when not sent or ignored. */
export function cscResult(csc: string | undefined, policy: EffectivePolicies['csc']): string {
  if (policy === '3' || csc === undefined) return ' ';
  return cscKey(csc) === '999' ? 'N' : 'M';
}

/** AVS check on the numeric parts (the sandbox fails 99): Y both, A address only, Z postcode only, N neither, U no data. */
export function avsResult(postcode: string | undefined, address1: string | undefined, p: EffectivePolicies): string {
  if (p.avs_postcode === '3' && p.match_avsa === '3') return ' ';
  const pc = p.avs_postcode === '3' ? undefined : numericPart(postcode);
  const ad = p.match_avsa === '3' ? undefined : numericPart(address1);
  if (pc === undefined && ad === undefined) return 'U';
  const pcOk = pc !== undefined && pc !== '99';
  const adOk = ad !== undefined && ad !== '99';
  return pcOk && adOk ? 'Y' : adOk ? 'A' : pcOk ? 'Z' : 'N';
}

const postcodeMatched = (avs: string) => avs === 'Y' || avs === 'Z';
const addressMatched = (avs: string) => avs === 'Y' || avs === 'A';

export function acquire(input: AcquirerInput): AcquirerOutcome {
  const p = input.policies;
  const csc_result = cscResult(input.csc, p.csc);
  const avs_result = avsResult(input.postcode, input.address1, p);
  const decline = (t: { code: string; message: string; result: number }, over: Partial<AcquirerOutcome> = {}): AcquirerOutcome => ({
    authorised: false,
    result: t.result,
    result_code: t.code,
    result_message: t.message,
    authcode: '',
    avs_result,
    csc_result,
    trans_status: t.result === 2 ? 'R' : 'D',
    ...over,
  });

  const keys = [AMOUNT_TRIGGERS[input.amount], p.csc === '3' ? undefined : cscKey(input.csc)].filter((k): k is string => k !== undefined);
  for (const key of keys) {
    const t = TRIGGERS[key];
    if (t && (!t.when || t.when(p))) return decline(t, t.code === '094' ? { csc_result: 'N' } : {});
  }
  if (p.csc === '1' && csc_result !== 'M') return decline({ code: '094', message: 'CSC failure', result: 0 });
  if (p.avs_postcode === '1' && !postcodeMatched(avs_result)) return decline({ code: '096', message: 'AVS postcode failure', result: 0 });
  if (p.match_avsa === '1' && !addressMatched(avs_result)) return decline({ code: '095', message: 'AVS address failure', result: 0 });
  return {
    authorised: true,
    result: 1,
    result_code: '001',
    result_message: 'Test Transaction Accepted',
    authcode: input.preAuth ? AUTH_CODES.preauth : AUTH_CODES.sale,
    avs_result,
    csc_result,
    trans_status: input.preAuth ? 'P' : 'O',
  };
}
