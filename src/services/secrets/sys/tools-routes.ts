// sys/tools/random and sys/tools/hash: random bytes and digests, as Vault's built-in tools answer them.
import { createHash, randomBytes } from 'node:crypto';
import { own } from '../../../core/own.ts';
import { badRequest } from '../contract.ts';
import { parseInteger } from '../http/fields.ts';
import type { CoreRoute } from './route.ts';

const HASHES: Record<string, string> = { 'sha2-224': 'sha224', 'sha2-256': 'sha256', 'sha2-384': 'sha384', 'sha2-512': 'sha512', 'sha3-224': 'sha3-224', 'sha3-256': 'sha3-256', 'sha3-384': 'sha3-384', 'sha3-512': 'sha3-512' };

function format(value: unknown): 'hex' | 'base64' {
  const f = value ?? 'base64';
  if (f !== 'hex' && f !== 'base64') throw badRequest(`unsupported encoding format ${JSON.stringify(f)}; must be "hex" or "base64"`);
  return f;
}

export function toolsRoutes(): CoreRoute[] {
  return [
    {
      pattern: /^tools\/random(?:\/(\d+))?$/,
      operations: ['update'],
      async handle(req, m) {
        const bytes = m[1] ? Number(m[1]) : req.data.bytes === undefined ? 32 : parseInteger(req.data.bytes, 'bytes');
        if (bytes < 1 || bytes > 128 * 1024) throw badRequest('the number of bytes must be between 1 and 131072');
        const enc = format(req.data.format);
        return { data: { random_bytes: randomBytes(bytes).toString(enc) } };
      },
    },
    {
      pattern: /^tools\/hash(?:\/([\w-]+))?$/,
      operations: ['update'],
      async handle(req, m) {
        const algorithm = String(m[1] ?? req.data.algorithm ?? 'sha2-256');
        const digest = own(HASHES, algorithm);
        if (!digest) throw badRequest(`unsupported algorithm ${algorithm}`);
        if (typeof req.data.input !== 'string') throw badRequest('missing input');
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(req.data.input)) throw badRequest('unable to decode input as base64');
        const enc = format(req.data.format ?? 'hex');
        return { data: { sum: createHash(digest).update(Buffer.from(req.data.input, 'base64')).digest(enc) } };
      },
    },
  ];
}
