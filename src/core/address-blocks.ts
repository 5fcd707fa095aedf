// Lists of IP addresses and CIDR ranges a caller's address must fall in (a token's bound CIDRs, a payment client's
// accepted sources). Matching is Node's BlockList, which also matches IPv4-mapped IPv6 addresses (`::ffff:10.1.2.3`,
// how an IPv4 peer shows on a dual-stack socket) against IPv4 entries, and the other way round.
import { BlockList, isIP } from 'node:net';

/** An address, or an address and a prefix length; no zone ids, no spaces, no leading zeros in the prefix. */
const ENTRY = /^([0-9A-Fa-f:.]{2,45})(?:\/(0|[1-9]\d{0,2}))?$/;

interface Block {
  address: string;
  prefix: number | undefined;
  family: 'ipv4' | 'ipv6';
}

function parse(entry: string): Block | undefined {
  const m = ENTRY.exec(entry);
  if (!m) return undefined;
  const version = isIP(m[1]!);
  if (version === 0) return undefined;
  const prefix = m[2] === undefined ? undefined : Number(m[2]);
  if (prefix !== undefined && prefix > (version === 4 ? 32 : 128)) return undefined;
  return { address: m[1]!, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** True when `entry` is an IPv4 or IPv6 address or CIDR range (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`). */
export const isAddressBlock = (entry: string): boolean => parse(entry) !== undefined;

// A list kept by a cache (a client, a token) is the same array from request to request: it is compiled once.
const compiled = new WeakMap<readonly string[], BlockList>();

function blockListOf(entries: readonly string[]): BlockList {
  let list = compiled.get(entries);
  if (!list) {
    list = new BlockList();
    for (const block of entries.map(parse)) {
      if (!block) continue;
      if (block.prefix === undefined) list.addAddress(block.address, block.family);
      else list.addSubnet(block.address, block.prefix, block.family);
    }
    compiled.set(entries, list);
  }
  return list;
}

/** True when the list is empty or `address` (a connection's remote address) falls in one of its entries. */
export function addressInBlocks(entries: readonly string[], address: string | undefined): boolean {
  if (entries.length === 0) return true;
  // A link-local peer's zone (`fe80::1%eth0`) names the interface, not the address.
  const bare = address?.split('%')[0] ?? '';
  const version = isIP(bare);
  return version !== 0 && blockListOf(entries).check(bare, version === 4 ? 'ipv4' : 'ipv6');
}
