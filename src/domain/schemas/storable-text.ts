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
 * text in it can be stored: for parsed input as a whole (JSON written to `jsonb`, a parsed query). Walks
 * with a stack of its own, not by recursion, so no nesting can overflow the call stack (issue #33).
 */
export function findUnstorableText(value: unknown, path: readonly string[] = []): string[] | null {
  // Each place links to its parent (no path copied per value); depth first, in document order, each
  // object's key checked just before its value is walked.
  interface Place {
    value: unknown;
    parent: Place | null;
    segment: string | null;
    isKey: boolean;
  }
  const pathOf = (place: Place): string[] => {
    const segments: string[] = [];
    for (let p: Place | null = place; p; p = p.parent) if (p.segment !== null) segments.push(p.segment);
    return [...path, ...segments.reverse()];
  };
  const todo: Place[] = [{ value, parent: null, segment: null, isKey: false }];
  for (let place = todo.pop(); place; place = todo.pop()) {
    if (place.isKey && !isStorableText(place.segment!)) return pathOf(place);
    const item = place.value;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return pathOf(place);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i -= 1)
        todo.push({ value: item[i], parent: place, segment: String(i), isKey: false });
    } else if (item !== null && typeof item === 'object' && !(item instanceof Date)) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i]!;
        todo.push({ value: child, parent: place, segment: key, isKey: true });
      }
    }
  }
  return null;
}

/** Text the client sends outside any schema (a User-Agent, a forwarded address): kept only when storable. */
export function storableOrNull(value: string | null | undefined): string | null {
  return typeof value === 'string' && isStorableText(value) ? value : null;
}
