// conferenceData: either a createRequest (generated asynchronously: pending -> success | failure) or a solution with
// entry points. Limits of spec C4: uri 1300, label 512, codes and passwords 128, notes 2048.
import { randomBytes } from 'node:crypto';
import { arr, httpUrl, obj, only, optStr, str, type Obj } from './check.ts';
import { badRequest } from './errors.ts';

export interface EntryPoint {
  entryPointType: string;
  uri: string;
  label?: string;
  meetingCode?: string;
  accessCode?: string;
  passcode?: string;
  password?: string;
  pin?: string;
  regionCode?: string;
}

export interface ConferenceData {
  createRequest?: { requestId: string; conferenceSolutionKey: { type: string }; status: { statusCode: 'pending' | 'success' | 'failure' } };
  conferenceSolution?: { key: { type: string }; name?: string; iconUri?: string };
  entryPoints?: EntryPoint[];
  conferenceId?: string;
  signature?: string;
  notes?: string;
  parameters?: unknown;
}

/** Key types a create request may name: the spec's `confMeet`, the real API's `hangoutsMeet` alias, and `addOn`. */
const CREATABLE = ['confMeet', 'hangoutsMeet', 'addOn'];
const DEPRECATED = ['eventHangout', 'eventNamedHangout', 'eventConf', 'eventNamedConf'];
const CODE_FIELDS = ['meetingCode', 'accessCode', 'passcode', 'password', 'pin'] as const;
const ENTRY_TYPES = ['video', 'phone', 'sip', 'more'];

export function readConferenceData(raw: unknown): ConferenceData {
  const o = obj(raw, 'conferenceData');
  only(o, ['createRequest', 'conferenceSolution', 'entryPoints', 'conferenceId', 'signature', 'notes', 'parameters'], 'conferenceData');
  const out: ConferenceData = {};
  const notes = optStr(o.notes, 'conferenceData.notes', 2048);
  if (notes !== undefined) out.notes = notes;
  const conferenceId = optStr(o.conferenceId, 'conferenceData.conferenceId', 1024);
  if (o.parameters !== undefined && o.parameters !== null) out.parameters = obj(o.parameters, 'conferenceData.parameters');
  if (o.createRequest !== undefined && o.createRequest !== null) {
    const r = obj(o.createRequest, 'conferenceData.createRequest');
    only(r, ['requestId', 'conferenceSolutionKey', 'status'], 'conferenceData.createRequest');
    const requestId = str(r.requestId, 'conferenceData.createRequest.requestId', 1024);
    if (requestId === '') throw badRequest('Invalid conference request: requestId is required.', 'conferenceData.createRequest.requestId');
    const key = obj(r.conferenceSolutionKey, 'conferenceData.createRequest.conferenceSolutionKey');
    only(key, ['type'], 'conferenceData.createRequest.conferenceSolutionKey');
    const type = str(key.type, 'conferenceData.createRequest.conferenceSolutionKey.type', 64);
    if (DEPRECATED.includes(type)) throw badRequest(`Invalid conference type value: ${type} can no longer be created.`, 'conferenceData.createRequest.conferenceSolutionKey.type');
    if (!CREATABLE.includes(type)) throw badRequest(`Invalid conference type value: ${type}.`, 'conferenceData.createRequest.conferenceSolutionKey.type');
    out.createRequest = { requestId, conferenceSolutionKey: { type }, status: { statusCode: 'pending' } };
    return out;
  }
  const solution = obj(o.conferenceSolution, 'conferenceData.conferenceSolution');
  only(solution, ['key', 'name', 'iconUri'], 'conferenceData.conferenceSolution');
  const key = obj(solution.key, 'conferenceData.conferenceSolution.key');
  only(key, ['type'], 'conferenceData.conferenceSolution.key');
  out.conferenceSolution = { key: { type: str(key.type, 'conferenceData.conferenceSolution.key.type', 64) } };
  const name = optStr(solution.name, 'conferenceData.conferenceSolution.name', 512);
  if (name !== undefined) out.conferenceSolution.name = name;
  if (solution.iconUri !== undefined && solution.iconUri !== null) out.conferenceSolution.iconUri = httpUrl(solution.iconUri, 'conferenceData.conferenceSolution.iconUri', 1300);
  out.entryPoints = readEntryPoints(o.entryPoints);
  if (conferenceId !== undefined) out.conferenceId = conferenceId;
  const signature = optStr(o.signature, 'conferenceData.signature', 2048);
  if (signature !== undefined) out.signature = signature;
  return out;
}

function readEntryPoints(raw: unknown): EntryPoint[] {
  const list = arr(raw ?? [], 'conferenceData.entryPoints', 100);
  const counts: Record<string, number> = {};
  const points = list.map((item, i) => {
    const field = `conferenceData.entryPoints[${i}]`;
    const p = obj(item, field);
    only(p, ['entryPointType', 'uri', 'label', 'regionCode', 'entryPointFeatures', ...CODE_FIELDS], field);
    const type = str(p.entryPointType, `${field}.entryPointType`, 32);
    if (!ENTRY_TYPES.includes(type)) throw badRequest(`Invalid entry point type: ${type}.`, `${field}.entryPointType`);
    counts[type] = (counts[type] ?? 0) + 1;
    const uri = str(p.uri, `${field}.uri`, 1300);
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1].toLowerCase();
    const wanted = type === 'phone' ? ['tel'] : type === 'sip' ? ['sip'] : ['http', 'https'];
    if (!scheme || !wanted.includes(scheme)) throw badRequest(`Invalid entry point uri: a ${type} entry point needs a ${wanted.join(' or ')}: URI.`, `${field}.uri`);
    const point: EntryPoint = { entryPointType: type, uri };
    const label = optStr(p.label, `${field}.label`, 512);
    if (label !== undefined) point.label = label;
    for (const code of CODE_FIELDS) {
      const v = optStr(p[code], `${field}.${code}`, 128);
      if (v !== undefined) point[code] = v;
    }
    const region = optStr(p.regionCode, `${field}.regionCode`, 8);
    if (region !== undefined) point.regionCode = region;
    return point;
  });
  for (const single of ['video', 'sip', 'more']) {
    if ((counts[single] ?? 0) > 1) throw badRequest(`Invalid conference data: at most one ${single} entry point is allowed.`, 'conferenceData.entryPoints');
  }
  if (points.length === 0) throw badRequest('Invalid conference data: a conference solution needs at least one entry point.', 'conferenceData.entryPoints');
  if (points.every((p) => p.entryPointType === 'more')) throw badRequest('Invalid conference data: a "more" entry point alone is not a conference.', 'conferenceData.entryPoints');
  return points;
}

/** A meeting code in the `confMeet` format: ten letters grouped 3-4-3 with dashes. */
export function meetingCode(): string {
  const letters = [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
  return `${letters.slice(0, 3)}-${letters.slice(3, 7)}-${letters.slice(7)}`;
}

/** The outcome of a create request: a Meet-style conference, or failure for providers twinstack cannot reach. */
export function completeRequest(data: ConferenceData, meetBase: string): ConferenceData {
  const request = data.createRequest!;
  if (request.conferenceSolutionKey.type === 'addOn') {
    return { ...strip(data), createRequest: { ...request, status: { statusCode: 'failure' } } };
  }
  const code = meetingCode();
  const uri = `${meetBase}/${code}`;
  return {
    ...strip(data),
    createRequest: { ...request, status: { statusCode: 'success' } },
    conferenceSolution: { key: { type: request.conferenceSolutionKey.type }, name: 'Meet', iconUri: `${meetBase}/icon.png` },
    entryPoints: [{ entryPointType: 'video', uri, label: uri.replace(/^https?:\/\//, ''), meetingCode: code }],
    conferenceId: code,
    signature: randomBytes(24).toString('base64url'),
  };
}

const strip = (data: ConferenceData): ConferenceData => {
  const { conferenceSolution: _s, entryPoints: _e, conferenceId: _c, signature: _g, ...rest } = data;
  return rest;
};

export type { Obj };
