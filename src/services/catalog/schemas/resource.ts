// Documented requests of the methods defineResource (layer/resource.ts) makes: bodies are the resource's wire type
// with its required fields and length limits, paging on list, updateMask on patch, and the id parameter of resources
// named by a query parameter on create.
import { Type, type TProperties } from '@sinclair/typebox';
import type { MethodName, ResourceSpec } from '../layer/resource.ts';
import type { RequestShape } from '../layer/operation.ts';
import { MAX_RESULTS_PAGING, PAGE_SIZE_PAGING, UPDATE_MASK } from './common.ts';
import { wireBody, type FieldRules } from './wire.ts';

/** What a resource adds to the generated documentation: rules its hooks enforce, and query parameters per method. */
export interface ResourceDocs {
  /** Rules by field path beyond required fields and lengths (enumerations, formats, descriptions). */
  rules?: FieldRules;
  query?: Partial<Record<MethodName, TProperties>>;
}

export function resourceRequests(spec: ResourceSpec): Partial<Record<MethodName, RequestShape>> {
  const lengths: FieldRules = Object.fromEntries(Object.entries(spec.maxLengths ?? {}).map(([path, max]) => [path, { maxLength: max }]));
  const rules: FieldRules = { ...lengths };
  for (const [path, rule] of Object.entries(spec.docs?.rules ?? {})) rules[path] = { ...rules[path], ...rule };
  // The id comes from the path (update, patch) or is made by the service: the body need not carry it.
  const required = (spec.required ?? []).filter((f) => f !== spec.idField);
  const idRequired = spec.id.from === 'body' && !spec.computeId ? [spec.idField] : [];
  const full = wireBody(spec.wire, { rules, required: [...required, ...idRequired] });
  const replacing = wireBody(spec.wire, { rules, required });
  const partial = wireBody(spec.wire, { rules });
  const extra = (m: MethodName): TProperties => spec.docs?.query?.[m] ?? {};
  const idQuery: TProperties =
    spec.id.from === 'query' ? { [spec.id.param]: Type.String({ minLength: 1, description: `Id of the new ${spec.wire}.` }) } : {};
  return {
    get: { query: extra('get') },
    list: { query: { ...(spec.list?.paging === 'pageSize' ? PAGE_SIZE_PAGING : spec.list?.paging === 'none' ? {} : MAX_RESULTS_PAGING), ...extra('list') } },
    insert: { query: { ...idQuery, ...extra('insert') }, body: full },
    create: { query: { ...idQuery, ...extra('create') }, body: full },
    update: { query: extra('update'), body: replacing },
    patch: { query: { ...UPDATE_MASK, ...extra('patch') }, body: partial },
    delete: { query: extra('delete') },
  };
}
