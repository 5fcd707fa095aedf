// sys/audit (list, enable, disable; sudo) and sys/audit-hash/:path (hash a value as a device would).
import { badRequest, type SystemRoute } from '../contract.ts';
import { boolField, stringField, stringMapField } from '../auth/fields.ts';
import type { FileAuditor } from './auditor.ts';
import { filePathOf, newSalt, writeLine, type AuditDevice } from './devices.ts';
import { hashValue } from './entry.ts';

const normalise = (raw: string) => `${raw.replace(/^\/+|\/+$/g, '')}/`;

const shown = (d: AuditDevice) => ({ type: d.type, description: d.description, options: d.options, local: d.local, path: d.path });

export function auditRoutes(auditor: () => FileAuditor): SystemRoute[] {
  return [
    {
      pattern: /^audit\/?$/,
      help: '## DESCRIPTION\n\nLists the enabled audit devices (sudo).\n',
      operations: ['read'],
      rootProtected: true,
      rootNamespaceOnly: true,
      handle: async () => {
        const data: Record<string, unknown> = {};
        for (const d of await auditor().devices()) data[d.path] = shown(d);
        return { data, topLevelData: true };
      },
    },
    {
      pattern: /^audit\/(.+)$/,
      help: '## DESCRIPTION\n\nEnables (type file, options.file_path) or disables an audit device (sudo).\n',
      operations: ['create', 'update', 'delete'],
      rootProtected: true,
      rootNamespaceOnly: true,
      handle: async (req, m) => {
        const path = normalise(m[1]);
        const devices = await auditor().devices();
        if (req.operation === 'delete') {
          await auditor().replaceDevices(devices.filter((d) => d.path !== path));
          return null;
        }
        const type = stringField(req.data, 'type');
        if (!type) throw badRequest('type is required');
        if (type !== 'file') throw badRequest(`unknown backend type: "${type}"`);
        if (devices.some((d) => d.path === path)) throw badRequest(`path already in use`);
        const options = stringMapField(req.data, 'options') ?? {};
        const device: AuditDevice = {
          path,
          type: 'file',
          description: stringField(req.data, 'description') ?? '',
          local: boolField(req.data, 'local') ?? false,
          options,
          salt: newSalt(),
        };
        if (!filePathOf(device)) throw badRequest('file_path is required');
        try {
          // opening the sink now turns an unusable path into a clear 400 instead of failing later requests
          await writeLine(device, '');
        } catch (err) {
          throw badRequest(`failed to enable audit device: sink: ${(err as Error).message}`);
        }
        await auditor().replaceDevices([...devices, device]);
        return null;
      },
    },
    {
      pattern: /^audit-hash\/(.+)$/,
      help: '## DESCRIPTION\n\nHashes a value with the salt of an audit device.\n',
      operations: ['update'],
      rootNamespaceOnly: true,
      handle: async (req, m) => {
        const device = (await auditor().devices()).find((d) => d.path === normalise(m[1]));
        if (!device) throw badRequest('unknown audit backend');
        const input = stringField(req.data, 'input');
        if (input === undefined) throw badRequest('the "input" parameter is required');
        return { data: { hash: hashValue(Buffer.from(device.salt, 'hex'), input) } };
      },
    },
  ];
}
