// The Auditor the router calls around every request: one line per request and per response to each enabled device.
// When devices are enabled and none of them can write, the call throws and the request fails (500) rather than go
// unaudited.
import { SecretsError, type AuditTrail, type Auditor, type LogicalRequest, type LogicalResponse, type SecretsCore } from '../contract.ts';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';
import { hashOptionsOf, loadDevices, saveDevices, writeLine, type AuditDevice } from './devices.ts';
import { requestEntry, responseEntry } from './entry.ts';
import { stringifyExact } from '../exact-numbers.ts';

export class FileAuditor implements Auditor {
  readonly #core: SecretsCore;

  constructor(core: SecretsCore) {
    this.#core = core;
  }

  #rootStorage() {
    return this.#core.systemStorage(ROOT_NAMESPACE);
  }

  /** Read on every request, so a device enabled through any instance sharing the database audits every request. */
  async devices(): Promise<AuditDevice[]> {
    return loadDevices(this.#rootStorage());
  }

  async replaceDevices(devices: AuditDevice[]): Promise<void> {
    await saveDevices(this.#rootStorage(), devices);
  }

  /** Writes the request's line; the devices it went to are the trail its response line follows. */
  async logRequest(req: LogicalRequest): Promise<AuditTrail> {
    const devices = await this.devices();
    if (devices.length > 0) await this.#write(devices, (d, time) => requestEntry(req, this.#options(d, req), time));
    return devices;
  }

  async logResponse(trail: AuditTrail, req: LogicalRequest, res: LogicalResponse | null, err?: SecretsError): Promise<void> {
    const devices = trail as AuditDevice[];
    if (devices.length > 0) await this.#write(devices, (d, time) => responseEntry(req, res, err, this.#options(d, req), time));
  }

  /** A refused request: its request line and a response line carrying the error, as for any other failure. */
  async logDenied(req: LogicalRequest, err: SecretsError): Promise<void> {
    await this.logResponse(await this.logRequest(req), req, null, err);
  }

  #options(d: AuditDevice, req: LogicalRequest) {
    return hashOptionsOf(d, { request: req.mount?.config.audit_non_hmac_request_keys ?? [], response: req.mount?.config.audit_non_hmac_response_keys ?? [] });
  }

  async #write(devices: AuditDevice[], build: (d: AuditDevice, time: string) => Record<string, unknown>): Promise<void> {
    const time = new Date(this.#core.clock.now()).toISOString();
    let written = 0;
    for (const device of devices) {
      try {
        await writeLine(device, `${stringifyExact(build(device, time))}\n`);
        written++;
      } catch (err) {
        this.#core.log.error({ err, device: device.path }, 'audit device failed to write');
      }
    }
    if (written === 0) throw new SecretsError(500, 'internal error');
  }
}
