// The sandbox 3-D Secure v2 server: the CSC picks a frictionless outcome or starts a challenge. Pure.

export type ThreeDsOutcome =
  | { kind: 'frictionless'; authen_result: 'Y' | 'N' | 'A' | 'U' | 'R'; eci: string; proceed: boolean; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'challenge' };

/** How far the card holder was authenticated; the ECI that says so depends on the scheme. */
type Level = 'authenticated' | 'attempted' | 'none';

// Visa, Amex and the others: 05 / 06 / 07. Mastercard and its Maestro: 02 / 01 / 00.
const VISA_ECI: Record<Level, string> = { authenticated: '05', attempted: '06', none: '07' };
const MASTERCARD_ECI: Record<Level, string> = { authenticated: '02', attempted: '01', none: '00' };
const MASTERCARD_SCHEMES = new Set(['MC', 'MA']);

/** The ECI of an authentication `level` for a card of scheme `schemeId` (VI, MC, MA, AX...). */
export const eciFor = (level: Level, schemeId: string): string => (MASTERCARD_SCHEMES.has(schemeId) ? MASTERCARD_ECI : VISA_ECI)[level];

const FRICTIONLESS: Record<string, { authen_result: 'Y' | 'N' | 'A' | 'U' | 'R'; level: Level; proceed: boolean; message: string }> = {
  '731': { authen_result: 'N', level: 'none', proceed: false, message: 'Authentication failure: not authenticated' },
  '732': { authen_result: 'U', level: 'none', proceed: true, message: 'Verification could not be performed' },
  '733': { authen_result: 'R', level: 'none', proceed: false, message: 'Authentication failure: verification rejected' },
  '741': { authen_result: 'A', level: 'attempted', proceed: true, message: 'Attempts processing performed' },
  '750': { authen_result: 'Y', level: 'authenticated', proceed: true, message: 'Authenticated' },
};

/** What the directory/ACS decides for an e-commerce authorisation carrying `csc`, on a card of scheme `schemeId`. */
export function threeDsFor(csc: string | undefined, schemeId: string): ThreeDsOutcome {
  const key = csc?.slice(-3);
  if (key === '761') return { kind: 'error', message: '3DSecure error message received from the directory server' };
  const found = key === undefined ? undefined : FRICTIONLESS[key];
  if (!found) return { kind: 'challenge' };
  const { level, ...outcome } = found;
  return { kind: 'frictionless', ...outcome, eci: eciFor(level, schemeId) };
}

/** The outcome of a challenge, from the transStatus the ACS delivered, on a card of scheme `schemeId`. */
export function challengeResult(transStatus: string, schemeId: string): { authen_result: 'Y' | 'N' | 'A' | 'U' | 'R'; eci: string; proceed: boolean } {
  const result = (authen_result: 'Y' | 'N' | 'A' | 'U' | 'R', level: Level, proceed: boolean) => ({ authen_result, eci: eciFor(level, schemeId), proceed });
  switch (transStatus) {
    case 'Y':
      return result('Y', 'authenticated', true);
    case 'A':
      return result('A', 'attempted', true);
    case 'U':
      return result('U', 'none', true);
    case 'R':
      return result('R', 'none', false);
    default:
      return result('N', 'none', false);
  }
}
