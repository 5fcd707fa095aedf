// CIDR bindings of logins and tokens: a list of blocks (or single addresses) the caller's address must fall in.
import { addressInBlocks, isAddressBlock } from '../../../core/address-blocks.ts';
import { badRequest } from '../contract.ts';

/** Validates a list as written by a client (400 naming the first bad entry). */
export function checkCidrs(field: string, cidrs: string[]): string[] {
  for (const c of cidrs) if (!isAddressBlock(c.trim())) throw badRequest(`invalid CIDR in ${field}: ${JSON.stringify(c)}`);
  return cidrs;
}

/**
 * True when the list is empty or the address falls in one of its blocks. Entries are kept as written, blanks around
 * them included; a list without any is passed as it is, so its compiled form is kept with it.
 */
export function addressAllowed(remote: string | undefined, cidrs: readonly string[]): boolean {
  return addressInBlocks(cidrs.some((c) => c !== c.trim()) ? cidrs.map((c) => c.trim()) : cidrs, remote);
}
