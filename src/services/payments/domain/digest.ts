// The response digest a merchant checks: Base64(SHA-256(authcode + amount + result_code + merchantid + transno +
// identifier + licence key)), numbers as plain decimals, a missing authcode as the empty string.
import { createHash } from 'node:crypto';

export interface DigestParts {
  authcode: string;
  amount: number;
  result_code: string;
  merchantid: number;
  transno: number;
  identifier: string;
}

export function responseDigest(p: DigestParts, licenceKey: string): string {
  const text = `${p.authcode}${p.amount}${p.result_code}${p.merchantid}${p.transno}${p.identifier}${licenceKey}`;
  return createHash('sha256').update(text, 'utf8').digest('base64');
}
