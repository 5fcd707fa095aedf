// The CReq and CRes the simulated ACS exchanges: base64url JSON, as EMV 3-D Secure 2.2 encodes them.

export interface CReq {
  threeDSServerTransID: string;
  acsTransID: string;
  messageType: 'CReq';
  messageVersion: string;
  challengeWindowSize: string;
}

export interface CRes {
  threeDSServerTransID: string;
  acsTransID: string;
  messageType: 'CRes';
  messageVersion: string;
  transStatus: string;
}

export const MESSAGE_VERSION = '2.2.0';

export const encodeMessage = (m: CReq | CRes): string => Buffer.from(JSON.stringify(m), 'utf8').toString('base64url');

const UUIDISH = /^[0-9a-f-]{36}$/i;

/** Decodes a CReq or CRes; undefined when it is not one. */
export function decodeMessage<T extends CReq | CRes>(text: unknown, type: T['messageType']): T | undefined {
  if (typeof text !== 'string' || text.length > 4096 || !/^[A-Za-z0-9_=+/-]+$/.test(text)) return undefined;
  try {
    const m = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (m.messageType !== type || typeof m.threeDSServerTransID !== 'string' || typeof m.acsTransID !== 'string') return undefined;
    if (!UUIDISH.test(m.threeDSServerTransID) || !UUIDISH.test(m.acsTransID)) return undefined;
    return m as unknown as T;
  } catch {
    return undefined;
  }
}
