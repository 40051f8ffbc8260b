/**
 * Reads a CSV file as RFC 4180 writes it (`domain/csv.ts`): quoted cells, doubled quotes, every row ended by
 * CRLF; a leading byte order mark is skipped. A bare LF belongs to its cell, and text after the last CRLF
 * throws: a file that ends its rows any other way is not what the exports promise.
 */
export function readCsv(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length > 0 || quoted)
    throw new Error(`CSV: text after the last CRLF: ${JSON.stringify(cell)}`);
  return rows;
}

/** The audit log export's header row in English, as `GET /api/admin/audit.csv` must write it. */
export const auditExportHeader = [
  'When',
  'Who',
  'Role',
  'Action',
  'Target',
  'Loan',
  'Changes',
  'Reason',
  'IP',
  'Action (readable)',
  'Role (readable)',
  'Changes (readable)',
];
