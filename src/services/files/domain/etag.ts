// ETags of files and other resources: opaque, quoted, and changing with every version.
import { createHash } from 'node:crypto';

export function etagOf(id: string, version: number): string {
  return `"${createHash('sha256').update(`${id}:${version}`).digest('base64url').slice(0, 27)}"`;
}
