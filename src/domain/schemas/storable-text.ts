/**
 * The one rule for text the server may store or look up: no NUL (U+0000) and no lone UTF-16 surrogate.
 * PostgreSQL refuses both (NUL in `text`, either in `jsonb`), so such text is refused at the schema as
 * a validation error instead of failing in the database. Every string input schema starts with `text()`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this rule looks for
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !unstorable.test(value);
}

/**
 * The path of the first string (value or object key) in `value` that breaks the rule, or null when all
 * text in it can be stored: for parsed input as a whole (JSON written to `jsonb`, a parsed query).
 */
export function findUnstorableText(value: unknown, path: readonly string[] = []): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : [...path];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return [...path, key];
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Text the client sends outside any schema (a User-Agent, a forwarded address): kept only when storable. */
export function storableOrNull(value: string | null | undefined): string | null {
  return typeof value === 'string' && isStorableText(value) ? value : null;
}
