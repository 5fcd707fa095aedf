// Entity documents from outside (admin API, `twinstack entities load`, the built-in samples): parsed and validated
// as a whole before anything is stored.
import { readFileSync } from 'node:fs';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ApiError } from '../../core/errors.ts';
import { parseEntityId, type Entity } from './domain/entity.ts';
import { EntityInput } from './schemas.ts';

const check = TypeCompiler.Compile(EntityInput);

/** Validates documents; throws a 400 naming the first bad document and field. Nothing is stored on failure. */
export function validateEntities(docs: unknown[]): Entity[] {
  return docs.map((doc, i) => {
    if (!check.Check(doc)) {
      const err = check.Errors(doc).First();
      throw new ApiError(400, `entity ${i}: ${err?.path || '/'} ${err?.message ?? 'is invalid'}`);
    }
    const input = doc as EntityInput;
    const entity = { ...input, id: parseEntityId(input.id)! } as Entity;
    if (input.links) entity.links = Object.fromEntries(Object.entries(input.links).map(([property, ids]) => [property, ids.map((id) => parseEntityId(id)!)]));
    return entity;
  });
}

/** JSON array or newline-delimited JSON. */
export function parseEntityText(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as unknown[];
  return trimmed.split('\n').filter((l) => l.trim()).map((line, i) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new ApiError(400, `line ${i + 1} is not JSON`);
    }
  });
}

export const SEED_PATH = new URL('./seed.json', import.meta.url);
export const readSeed = (): unknown[] => JSON.parse(readFileSync(SEED_PATH, 'utf8')) as unknown[];
