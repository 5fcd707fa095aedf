// Audit devices: their configuration (kept in the root namespace's system view, salt included) and the file sink.
// Devices are global to the store, as in Vault, and enabled only from the root namespace.
import { randomBytes } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import type { BarrierStorage } from '../contract.ts';
import type { HashOptions } from './entry.ts';

export interface AuditDevice {
  /** With a trailing slash (`file/`). */
  path: string;
  type: 'file';
  description: string;
  local: boolean;
  options: Record<string, string>;
  /** Hex; the HMAC key of this device. */
  salt: string;
}

const KEY = 'audit/devices';

export async function loadDevices(storage: BarrierStorage): Promise<AuditDevice[]> {
  return (await storage.get<AuditDevice[]>(KEY)) ?? [];
}

export async function saveDevices(storage: BarrierStorage, devices: AuditDevice[]): Promise<void> {
  await storage.put(KEY, devices);
}

export const newSalt = (): string => randomBytes(32).toString('hex');

const truthy = (v: string | undefined) => v !== undefined && ['1', 't', 'true', 'TRUE', 'True'].includes(v);

export function hashOptionsOf(device: AuditDevice, nonHmac: { request: string[]; response: string[] } = { request: [], response: [] }): HashOptions {
  return {
    salt: Buffer.from(device.salt, 'hex'),
    raw: truthy(device.options.log_raw),
    hmacAccessor: device.options.hmac_accessor === undefined ? true : truthy(device.options.hmac_accessor),
    nonHmacRequestKeys: nonHmac.request,
    nonHmacResponseKeys: nonHmac.response,
  };
}

/** Where a file device writes (`file_path`, legacy `path`); `stdout` and `discard` as in Vault. */
export const filePathOf = (device: AuditDevice): string => device.options.file_path ?? device.options.path ?? '';

/** Appends one line; throws when the sink cannot be written. */
export async function writeLine(device: AuditDevice, line: string): Promise<void> {
  const target = filePathOf(device);
  if (target === 'discard') return;
  if (target === 'stdout') {
    process.stdout.write(line);
    return;
  }
  const mode = device.options.mode ? Number.parseInt(device.options.mode, 8) : 0o600;
  await appendFile(target, line, { mode: Number.isFinite(mode) && mode > 0 ? mode : 0o600 });
}
