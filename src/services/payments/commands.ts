// `twinstack payments api-key`: prints a fresh one-time `pay-api-key` for calls made by hand.
import type { Command } from 'commander';
import type { ServiceContext } from '../../core/service.ts';
import { gatewayOf } from './gateway.ts';
import { mintApiKey } from './manual-key.ts';
import { DEV_CLIENT_ID } from './settings.ts';

type Open = () => Promise<{ ctx: ServiceContext; close(): Promise<void> }>;

export function paymentsCommands(group: Command, open: Open): void {
  group
    .command('api-key')
    .description('print a fresh one-time API key (header pay-api-key); each request needs a new one')
    .option('--client <clientid>', 'the client whose licence key signs it', DEV_CLIENT_ID)
    .action(async (opts: { client: string }) => {
      const { ctx, close } = await open();
      try {
        const key = await mintApiKey(gatewayOf(ctx), opts.client);
        if (key === undefined) throw new Error(`no client ${opts.client}`);
        console.log(key);
      } finally {
        await close();
      }
    });
}
