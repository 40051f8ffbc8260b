import en from './field-names/en.json';

// Apart from ./field-names.ts (every language's names): the web's first load checks a field's key with
// this, and names the field from its own strings.
export type FieldKey = keyof typeof en;
export const fieldKeys = Object.keys(en) as FieldKey[];

export function isFieldKey(value: unknown): value is FieldKey {
  return typeof value === 'string' && Object.hasOwn(en, value);
}

/** Error codes whose text names the field they are about (`{field}`). */
export const fieldNamingCodes = ['FIELD_REQUIRED', 'FIELD_DIGITS_ONLY', 'FIELD_TOO_LONG'] as const;
