// A client's accepted sources (its IP allow-list): IPv4 and IPv6 addresses and CIDR ranges. An empty list accepts
// every source. Matching is Node's BlockList, which also matches IPv4-mapped IPv6 addresses (`::ffff:10.1.2.3`, how an
// IPv4 peer shows on a dual-stack socket) against IPv4 entries, and the other way round.
import { BlockList, isIP } from 'node:net';

/** At most this many entries per client. */
export const MAX_ACCEPTED_SOURCES = 100;

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

/** Why a list cannot be a client's accepted sources (naming the first bad entry), or undefined when it can. */
export function acceptedSourcesProblem(entries: readonly string[]): string | undefined {
  if (entries.length > MAX_ACCEPTED_SOURCES) return `accepted_sources: at most ${MAX_ACCEPTED_SOURCES} entries`;
  const bad = entries.findIndex((e) => parse(e) === undefined);
  if (bad < 0) return undefined;
  return `accepted_sources/${bad}: ${JSON.stringify(entries[bad])} is not an IPv4 or IPv6 address or CIDR range (such as 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32)`;
}

// A cached client keeps its list (the same array) between requests, so each list is compiled once.
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
export function sourceAccepted(entries: readonly string[], address: string | undefined): boolean {
  if (entries.length === 0) return true;
  // A link-local peer's zone (`fe80::1%eth0`) names the interface, not the address.
  const bare = address?.split('%')[0] ?? '';
  const version = isIP(bare);
  return version !== 0 && blockListOf(entries).check(bare, version === 4 ? 'ipv4' : 'ipv6');
}
