// Dev mode: initialised and unsealed on first start with one share kept in the data directory, kv version 2 at
// secret/, a root token printed at start (or fixed by the devRootToken setting); later starts unseal themselves
// from the kept share. Unlike a Vault dev server the data is durable.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';
import type { StoreCore } from '../sys/core.ts';

export const DEV_FILE = 'secrets-dev.json';

interface DevFile {
  unseal_key: string;
  root_token: string;
}

export interface DevState {
  rootToken: string;
  unsealKey: string;
}

export async function bootstrapDev(core: StoreCore, dataDir: string, fixedRootToken?: string): Promise<DevState | null> {
  const file = join(dataDir, DEV_FILE);
  const config = await core.seal.config();
  if (!config) {
    const result = await core.initialize(1, 1, fixedRootToken);
    const state: DevFile = { unseal_key: result.keys[0]!, root_token: result.rootToken };
    writeFileSync(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    await core.seal.unsealWithKey(result.unsealKey);
    await core.afterUnseal();
    await core.mounts.mount(ROOT_NAMESPACE, 'secret', { path: 'secret/', type: 'kv', options: { version: '2' }, description: 'key/value secret storage' });
    return { rootToken: state.root_token, unsealKey: state.unseal_key };
  }
  if (!existsSync(file)) {
    core.log.warn({ file }, 'the secrets store is initialised but the dev unseal key is missing; it stays sealed');
    return null;
  }
  const state = JSON.parse(readFileSync(file, 'utf8')) as DevFile;
  if (!state.unseal_key) {
    core.log.warn({ file }, 'the secrets store was rekeyed to several shares; unseal it with sys/unseal');
    return null;
  }
  await core.seal.unsealWithKey(Buffer.from(state.unseal_key, 'hex'));
  await core.afterUnseal();
  if (fixedRootToken && fixedRootToken !== state.root_token) {
    // A newly fixed token becomes a root token too, so the configured value always works.
    if (!(await core.authorizer.lookup(fixedRootToken))) await core.authorizer.createRootToken(ROOT_NAMESPACE, fixedRootToken);
    return { rootToken: fixedRootToken, unsealKey: state.unseal_key };
  }
  return { rootToken: state.root_token, unsealKey: state.unseal_key };
}

/** After a rekey: a single new share replaces the kept one; several shares end automatic unsealing. */
export function recordRekey(dataDir: string, unsealKey: Buffer, shares: number): void {
  const file = join(dataDir, DEV_FILE);
  if (!existsSync(file)) return;
  const state = JSON.parse(readFileSync(file, 'utf8')) as DevFile;
  state.unseal_key = shares === 1 ? unsealKey.toString('hex') : '';
  writeFileSync(file, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
}
