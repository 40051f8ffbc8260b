import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { csvLine, describeChanges } from '../../../domain/csv';
import type { AuditQuery } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { type AuditRow, filteredAuditEvents, selectAuditRows } from './list-audit-events';

const BATCH = 500;
const header = ['When', 'Who', 'Role', 'Action', 'Target', 'Loan', 'Changes', 'Reason', 'IP'];

/**
 * The filtered audit rows as CSV, streamed in keyset-paged batches so memory stays flat however long the
 * log is (and it works on PGlite, which has no server-side cursors).
 */
export function exportAuditCsv(deps: AppDeps, query: Omit<AuditQuery, 'page'>): Readable {
  const when = new Intl.DateTimeFormat('en-CA', {
    timeZone: deps.config.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  async function* lines() {
    yield `\uFEFF${csvLine(header)}`; // BOM: spreadsheets then read the UTF-8 (Chinese, Khmer) correctly
    let after: { at: Date; id: number } | null = null;
    for (;;) {
      let batch = selectAuditRows(filteredAuditEvents(deps, query));
      if (after) {
        const cursor: { at: Date; id: number } = after;
        batch = batch.where(sql<boolean>`(audit_events.at, audit_events.id) < (${cursor.at}, ${cursor.id})`);
      }
      const rows: AuditRow[] = await batch.limit(BATCH).execute();
      for (const r of rows) {
        yield csvLine([
          when.format(r.at).replace(',', ''),
          r.actor_username,
          r.actor_role,
          r.action,
          `${r.target_type} ${r.target_id}`,
          r.loan_number,
          describeChanges(r.changes),
          r.reason,
          r.ip,
        ]);
      }
      if (rows.length < BATCH) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, id: last.id };
    }
  }
  return Readable.from(lines());
}
