// The sandbox 3-D Secure v2 server: the CSC picks a frictionless outcome or starts a challenge. Pure.

export type ThreeDsOutcome =
  | { kind: 'frictionless'; authen_result: 'Y' | 'N' | 'A' | 'U' | 'R'; eci: string; proceed: boolean; message: string }
  | { kind: 'error'; message: string }
  | { kind: 'challenge' };

const FRICTIONLESS: Record<string, ThreeDsOutcome> = {
  '731': { kind: 'frictionless', authen_result: 'N', eci: '07', proceed: false, message: 'Authentication failure: not authenticated' },
  '732': { kind: 'frictionless', authen_result: 'U', eci: '07', proceed: true, message: 'Verification could not be performed' },
  '733': { kind: 'frictionless', authen_result: 'R', eci: '07', proceed: false, message: 'Authentication failure: verification rejected' },
  '741': { kind: 'frictionless', authen_result: 'A', eci: '06', proceed: true, message: 'Attempts processing performed' },
  '750': { kind: 'frictionless', authen_result: 'Y', eci: '05', proceed: true, message: 'Authenticated' },
};

/** What the directory/ACS decides for an e-commerce authorisation carrying `csc`. */
export function threeDsFor(csc: string | undefined): ThreeDsOutcome {
  const key = csc?.slice(-3);
  if (key === '761') return { kind: 'error', message: '3DSecure error message received from the directory server' };
  return (key !== undefined && FRICTIONLESS[key]) || { kind: 'challenge' };
}

/** The outcome of a challenge, from the transStatus the ACS delivered. */
export function challengeResult(transStatus: string): { authen_result: 'Y' | 'N' | 'A' | 'U' | 'R'; eci: string; proceed: boolean } {
  switch (transStatus) {
    case 'Y':
      return { authen_result: 'Y', eci: '05', proceed: true };
    case 'A':
      return { authen_result: 'A', eci: '06', proceed: true };
    case 'U':
      return { authen_result: 'U', eci: '07', proceed: true };
    case 'R':
      return { authen_result: 'R', eci: '07', proceed: false };
    default:
      return { authen_result: 'N', eci: '07', proceed: false };
  }
}
