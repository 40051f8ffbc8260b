/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote, or line break; quotes doubled. A cell that
 * a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe (OWASP).
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** "field: before → after" for each changed field, as the audit screen shows them. */
export function describeChanges(changes: Record<string, { before: unknown; after: unknown }>): string {
  const show = (v: unknown) =>
    v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return Object.entries(changes)
    .map(([field, { before, after }]) => `${field}: ${show(before)} → ${show(after)}`)
    .join('; ');
}
