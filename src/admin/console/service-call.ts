// Calls a service's own HTTP API in-process (no socket, so the request inspector does not record it), for views that
// show what the service itself answers.
import type { Runtime } from '../../core/runtime.ts';
import type { ServiceId } from '../../core/service.ts';
import { adminError } from '../errors.ts';

export interface ServiceAnswer {
  status: number;
  body: any;
}

export async function callService(
  rt: Runtime,
  id: ServiceId,
  request: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; headers?: Record<string, string>; body?: unknown },
): Promise<ServiceAnswer> {
  const service = rt.services.get(id);
  if (!service) throw adminError(404, `service ${id} is not running`);
  const res = await service.app.inject({
    method: request.method ?? 'GET',
    url: request.url,
    headers: { ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
    payload: request.body !== undefined ? JSON.stringify(request.body) : undefined,
  });
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body };
}

/** The service's answer when it succeeded, else an admin error carrying the service's own message. */
export async function expectOk(answer: Promise<ServiceAnswer>, what: string): Promise<any> {
  const { status, body } = await answer;
  if (status >= 200 && status < 300) return body;
  const message = body?.errors?.join?.('; ') ?? body?.error?.message ?? `status ${status}`;
  throw adminError(status === 404 ? 404 : 502, `${what}: ${message}`);
}
