// CIDR bindings of logins and tokens: a list of blocks (or single addresses) the caller's address must fall in.
import { BlockList, isIP } from 'node:net';
import { badRequest } from '../contract.ts';

interface Block {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

function parse(cidr: string): Block | undefined {
  const [address, bits] = cidr.trim().split('/');
  const version = isIP(address ?? '');
  if (!version) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return undefined;
  return { address: address!, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Validates a list as written by a client (400 naming the first bad entry). */
export function checkCidrs(field: string, cidrs: string[]): string[] {
  for (const c of cidrs) if (!parse(c)) throw badRequest(`invalid CIDR in ${field}: ${JSON.stringify(c)}`);
  return cidrs;
}

/** True when the list is empty or the address falls in one of its blocks. */
export function addressAllowed(remote: string, cidrs: readonly string[]): boolean {
  if (cidrs.length === 0) return true;
  // IPv4 clients on a dual-stack socket show as ::ffff:a.b.c.d
  const address = remote.startsWith('::ffff:') && remote.includes('.') ? remote.slice(7) : remote;
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const c of cidrs) {
    const block = parse(c);
    if (block) list.addSubnet(block.address, block.prefix, block.family);
  }
  return isIP(address) !== 0 && list.check(address, family);
}
