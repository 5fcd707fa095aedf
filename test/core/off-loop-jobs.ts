// Functions the OffLoop test runs on a worker and in place.
import { threadId } from 'node:worker_threads';

export class TooBig extends Error {
  override readonly name = 'TooBig';
}

export function where(): number {
  return threadId;
}

export function doubled(data: Uint8Array, limit: number): { data: Buffer; thread: number } {
  if (data.byteLength > limit) throw new TooBig(`${data.byteLength} bytes is more than ${limit}`);
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return { data: Buffer.concat([bytes, bytes]), thread: threadId };
}

export function fails(): never {
  throw new RangeError('not a known error');
}
