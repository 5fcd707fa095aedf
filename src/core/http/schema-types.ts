// TypeBox helpers for documented route schemas (see documented.ts) that TypeBox itself lacks.
import { Type, type SchemaOptions } from '@sinclair/typebox';

/** A string taking one of `values`: a plain OpenAPI `enum`, which reads better in the document than a union of literals. */
export const stringEnum = <T extends string>(values: readonly T[], options: SchemaOptions = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
