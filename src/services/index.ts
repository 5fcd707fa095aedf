// The registry of services. Order is the order of the start table.
import type { ServiceId, ServiceManifest } from '../core/service.ts';
import { manifest as books } from './books/index.ts';
import { manifest as bidding } from './bidding/index.ts';
import { manifest as calendar } from './calendar/index.ts';
import { manifest as catalog } from './catalog/index.ts';
import { manifest as entities } from './entities/index.ts';
import { manifest as errorreporting } from './errorreporting/index.ts';
import { manifest as files } from './files/index.ts';
import { manifest as payments } from './payments/index.ts';
import { manifest as secrets } from './secrets/index.ts';

export const SERVICES: ServiceManifest[] = [secrets, bidding, entities, errorreporting, payments, catalog, files, books, calendar];

export function manifestOf(id: ServiceId): ServiceManifest {
  const m = SERVICES.find((s) => s.id === id);
  if (!m) throw new Error(`unknown service ${id}`);
  return m;
}
