// A catalog record that cannot become a volume. The loader adds the line number and rejects the whole batch.
export class RecordError extends Error {}

export function checkText(value: string, field: string, max: number): string {
  if (value.length > max) throw new RecordError(`${field} is longer than ${max} characters`);
  return value;
}
