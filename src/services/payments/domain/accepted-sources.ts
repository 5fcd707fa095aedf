// A client's accepted sources (its IP allow-list): IPv4 and IPv6 addresses and CIDR ranges. An empty list accepts
// every source.
import { addressInBlocks, isAddressBlock } from '../../../core/address-blocks.ts';

/** At most this many entries per client. */
export const MAX_ACCEPTED_SOURCES = 100;

/** Why a list cannot be a client's accepted sources (naming the first bad entry), or undefined when it can. */
export function acceptedSourcesProblem(entries: readonly string[]): string | undefined {
  if (entries.length > MAX_ACCEPTED_SOURCES) return `accepted_sources: at most ${MAX_ACCEPTED_SOURCES} entries`;
  const bad = entries.findIndex((e) => !isAddressBlock(e));
  if (bad < 0) return undefined;
  return `accepted_sources/${bad}: ${JSON.stringify(entries[bad])} is not an IPv4 or IPv6 address or CIDR range (such as 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32)`;
}

/** True when the list is empty or `address` (a connection's remote address) falls in one of its entries. */
export const sourceAccepted = (entries: readonly string[], address: string | undefined): boolean => addressInBlocks(entries, address);
