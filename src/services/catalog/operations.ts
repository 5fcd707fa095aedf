// Every operation of the catalog, in one list: routes, custombatch and quotas.list all read it.
import type { Operation } from './layer/operation.ts';
import { accountOperations } from './routes/accounts.ts';
import { accountExtraOperations } from './resources/account-extras.ts';
import { inventoryOperations } from './routes/inventory.ts';
import { productOperations } from './routes/products.ts';
import { datafeedOperations } from './routes/datafeeds.ts';
import { reportOperations } from './routes/reports.ts';
import { conversionSourceOperations } from './resources/conversion-sources.ts';
import { liaOperations } from './resources/lia.ts';
import { miscOperations } from './resources/misc.ts';
import { plainOperations } from './resources/plain.ts';
import { programsOperations } from './resources/programs.ts';
import { settingsOperations } from './resources/settings.ts';
import { statusOperations } from './resources/statuses.ts';

let cached: Operation[] | undefined;

export function allOperations(): Operation[] {
  cached ??= [
    ...accountOperations(),
    ...accountExtraOperations(),
    ...productOperations(),
    ...inventoryOperations(),
    ...datafeedOperations(),
    ...reportOperations(),
    ...plainOperations(),
    ...conversionSourceOperations(),
    ...statusOperations(),
    ...settingsOperations(),
    ...liaOperations(),
    ...programsOperations(),
    ...miscOperations(() => methodNames()),
  ];
  return cached;
}

/** Every method name, sorted (what quotas.list reports). */
export function methodNames(): string[] {
  return [...new Set(allOperations().map((op) => op.method))].sort();
}
