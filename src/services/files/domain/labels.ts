// files.modifyLabels: label modifications applied to a file's labels. A label holds typed field values.
import { dictionary } from '../../../core/own.ts';
import { invalidValue, requiredValue } from '../errors.ts';

export type FieldValues = Record<string, { valueType: string; values: unknown[] }>;

export interface LabelModification {
  labelId: string;
  remove: boolean;
  fields: Array<{ fieldId: string; set?: { valueType: string; values: unknown[] }; unset: boolean }>;
}

const SETTERS: Record<string, { valueType: string; check: (v: unknown) => boolean }> = {
  setTextValues: { valueType: 'text', check: (v) => typeof v === 'string' && v.length <= 100 },
  setIntegerValues: { valueType: 'integer', check: (v) => typeof v === 'string' ? /^-?\d{1,18}$/.test(v) : Number.isSafeInteger(v) },
  setDateValues: { valueType: 'dateString', check: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) },
  setSelectionValues: { valueType: 'selection', check: (v) => typeof v === 'string' && /^[\w-]{1,128}$/.test(v) },
  setUserValues: { valueType: 'user', check: (v) => typeof v === 'string' && /^[^\s@]+@[^\s@]+$/.test(v) },
};

const ID = /^[\w-]{1,128}$/;

export function readModifications(body: Record<string, unknown>): LabelModification[] {
  const mods = body.labelModifications;
  if (!Array.isArray(mods)) throw requiredValue('labelModifications', 'labelModifications is required.');
  return mods.map((m, i) => {
    const at = `labelModifications[${i}]`;
    if (!m || typeof m !== 'object') throw invalidValue(at);
    const { labelId, removeLabel, fieldModifications } = m as Record<string, unknown>;
    if (typeof labelId !== 'string' || !ID.test(labelId)) throw invalidValue(`${at}.labelId`, `Invalid label id: ${String(labelId)}`);
    if (removeLabel !== undefined && typeof removeLabel !== 'boolean') throw invalidValue(`${at}.removeLabel`);
    if (fieldModifications !== undefined && !Array.isArray(fieldModifications)) throw invalidValue(`${at}.fieldModifications`);
    const fields = (fieldModifications ?? []).map((f: unknown, j: number) => {
      const fat = `${at}.fieldModifications[${j}]`;
      if (!f || typeof f !== 'object') throw invalidValue(fat);
      const fm = f as Record<string, unknown>;
      if (typeof fm.fieldId !== 'string' || !ID.test(fm.fieldId)) throw invalidValue(`${fat}.fieldId`);
      const setters = Object.keys(SETTERS).filter((k) => fm[k] !== undefined);
      if (setters.length > 1 || (setters.length === 1 && fm.unsetValues === true)) throw invalidValue(fat, 'A field modification sets one kind of value or unsets the field.');
      if (setters.length === 1) {
        const values = fm[setters[0]];
        const setter = SETTERS[setters[0]];
        if (!Array.isArray(values) || values.length === 0 || values.length > 100 || !values.every(setter.check)) throw invalidValue(`${fat}.${setters[0]}`);
        return { fieldId: fm.fieldId, set: { valueType: setter.valueType, values: values.map((v) => (setter.valueType === 'integer' ? String(v) : v)) }, unset: false };
      }
      return { fieldId: fm.fieldId, unset: fm.unsetValues === true };
    });
    return { labelId, remove: removeLabel === true, fields };
  });
}

/** The fields after applying one modification to the stored ones. */
export function applyFieldModifications(current: FieldValues, mod: LabelModification): FieldValues {
  // Field ids are the caller's names: on a plain object `__proto__` would set the prototype instead of a field.
  const next: FieldValues = Object.assign(dictionary<FieldValues[string]>(), current);
  for (const f of mod.fields) {
    if (f.unset) delete next[f.fieldId];
    else if (f.set) next[f.fieldId] = f.set;
  }
  return next;
}
