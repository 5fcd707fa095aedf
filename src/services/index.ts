// The registry of services. Order is the order of the start table.
import type { ServiceId, ServiceManifest } from '../core/service.ts';
import { placeholderService } from './placeholder.ts';

export const SERVICES: ServiceManifest[] = [
  placeholderService('secrets', 'secrets store'),
  placeholderService('bidding', 'bidding troubleshooting'),
  placeholderService('entities', 'entity search'),
  placeholderService('errorreporting', 'error reporting'),
  placeholderService('payments', 'payment gateway'),
  placeholderService('catalog', 'merchant catalog'),
  placeholderService('files', 'file storage'),
  placeholderService('books', 'book library'),
  placeholderService('calendar', 'calendar events'),
];

export function manifestOf(id: ServiceId): ServiceManifest {
  const m = SERVICES.find((s) => s.id === id);
  if (!m) throw new Error(`unknown service ${id}`);
  return m;
}
