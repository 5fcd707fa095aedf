// Custom parameters: extra fields the merchant asks the payer for on the payment form (or passes along hidden).
// Their entered values are checked here and travel with the payment result to the postback.
import { dictionary } from '../../../../core/own.ts';
import { compileUntrustedPattern, matchesWhole } from '../../../../core/untrusted-pattern.ts';

export interface CustomParam {
  name: string;
  value?: string;
  label?: string;
  field_type: 'text' | 'dob' | 'select' | 'hidden';
  /** For `select`: `a|b` or `v:label|w:label`. */
  options?: string;
  locked: boolean;
  required: boolean;
  pattern?: string;
  placeholder?: string;
  order: number;
}

/** The choices of a select parameter as value/label pairs. */
export function selectChoices(spec: string | undefined): Array<{ value: string; label: string }> {
  return (spec ?? '')
    .split('|')
    .filter((s) => s !== '')
    .map((item) => {
      const colon = item.indexOf(':');
      return colon > 0 ? { value: item.slice(0, colon), label: item.slice(colon + 1) } : { value: item, label: item };
    });
}

/** The values the payer submitted (fields named `custom_<name>`), or the first problem in words a payer understands. */
export function customValues(params: CustomParam[], form: Record<string, unknown>): { values: Record<string, string> } | { problem: string } {
  // Keyed by the merchant's parameter names: on a plain object `__proto__` would be dropped.
  const values = dictionary<string>();
  for (const p of params) {
    // Hidden and locked parameters keep the merchant's value whatever the browser sends.
    const entered = p.field_type === 'hidden' || p.locked ? (p.value ?? '') : String(form[`custom_${p.name}`] ?? '').trim();
    const label = p.label ?? p.name;
    if (entered === '') {
      if (p.required) return { problem: `${label} is required.` };
      continue;
    }
    if (entered.length > 200) return { problem: `${label} is too long.` };
    if (p.field_type === 'select' && !selectChoices(p.options).some((c) => c.value === entered)) return { problem: `Choose one of the options for ${label}.` };
    if (p.field_type === 'dob' && !isCalendarDate(entered)) return { problem: `${label} must be a date (YYYY-MM-DD).` };
    if (p.pattern && !matchesPattern(p.pattern, entered)) return { problem: `${label} is not in the expected format.` };
    values[p.name] = entered;
  }
  return { values };
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Whether `entered` matches the whole pattern; a pattern stored before RE2 checked it, and refused by it, matches nothing. */
function matchesPattern(pattern: string, entered: string): boolean {
  const compiled = compileUntrustedPattern(pattern);
  return !('refused' in compiled) && matchesWhole(compiled, entered);
}
