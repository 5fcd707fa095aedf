// The `kv` engine type: version 1 or 2 by the mount's `options.version` (a string, as Vault keeps it).
import type { BackendFactory } from '../contract.ts';
import { kvV1 } from './v1.ts';
import { kvV2 } from './v2.ts';

export const kvBackend: BackendFactory = (ctx) => (ctx.mount.options?.version === '2' ? kvV2(ctx) : kvV1(ctx));
