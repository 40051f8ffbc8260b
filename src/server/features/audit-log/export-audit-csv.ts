import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import {
  type AuditLabelLanguage,
  type AuditValueWriters,
  auditChangeLines,
  auditFieldLabel,
  auditLabels,
} from '../../../domain/audit-fields';
import { csvLine, describeChanges } from '../../../domain/csv';
import { isoCivil, zonedParts } from '../../../domain/date-text';
import { intlLocales } from '../../../domain/languages';
import { formatMoney } from '../../../domain/money';
import type { AuditQuery } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { type AuditRow, filteredAuditEvents, selectAuditRows } from './list-audit-events';

const BATCH = 500;

/** "2026-11-20 14:05:09" in the configured time zone: the When column, and moments in the changes. */
function momentWriter(timeZone: string): (at: Date) => string {
  return (at) => {
    const { date, timeWithSeconds } = isoCivil(zonedParts(at, timeZone));
    return `${date} ${timeWithSeconds}`;
  };
}

/** How the readable columns write values in one language (the catalogue the audit screen reads too). */
function csvWriters(lang: AuditLabelLanguage, moment: (at: Date) => string): AuditValueWriters {
  const labels = auditLabels[lang];
  const locale = intlLocales[lang];
  const numbers = new Intl.NumberFormat(locale);
  return {
    money: (minor) => formatMoney(minor, { locale }),
    // A stored calendar date stays 'YYYY-MM-DD': unambiguous in every language and sortable in a sheet.
    date: (isoDate) => isoDate,
    dateTime: (iso) => moment(new Date(iso)),
    number: (value) => numbers.format(value),
    status: (status) => (labels.statuses as Record<string, string>)[status] ?? status,
    role: (role) => (labels.roles as Record<string, string>)[role] ?? role,
    yes: labels.values.yes,
    no: labels.values.no,
    passwordReset: labels.values.passwordReset,
  };
}

function actionText(lang: AuditLabelLanguage, action: string): string {
  const [group, name] = action.split('.');
  const groups = auditLabels[lang].actions as Record<string, Record<string, string>>;
  return (group && name && groups[group]?.[name]) || action;
}

/**
 * The filtered audit rows as CSV, streamed in keyset-paged batches so memory stays flat however long the
 * log is (and it works on PGlite, which has no server-side cursors).
 *
 * The first batch is read before anything is sent: filters the database refuses, or a database that is
 * down, get the usual error answer instead of a 200. A failure after that cannot change the status any
 * more: it is logged and the stream errors, so the response is cut off without its last chunk (Fastify
 * destroys the socket) and a client sees an incomplete download, never a short file that looks complete.
 */
export async function exportAuditCsv(
  deps: AppDeps,
  query: Omit<AuditQuery, 'page'>,
  lang: AuditLabelLanguage = 'en',
  log: FastifyBaseLogger = deps.log,
): Promise<Readable> {
  const labels = auditLabels[lang];
  const h = labels.header;
  // The machine columns first (what scripts read, unchanged), then the same facts in the reader's language.
  const header = [
    h.when,
    h.who,
    h.role,
    h.action,
    h.target,
    h.loan,
    h.changes,
    h.reason,
    h.ip,
    h.actionReadable,
    h.roleReadable,
    h.changesReadable,
  ];
  const when = momentWriter(deps.config.timeZone);
  const write = csvWriters(lang, when);
  const batchAfter = (after: AuditRow | null): Promise<AuditRow[]> => {
    let batch = selectAuditRows(filteredAuditEvents(deps, query));
    if (after) {
      // The cursor's time is read back from the row itself: a JS Date keeps milliseconds, PostgreSQL keeps
      // microseconds, and rows of one transaction share their time, so a cursor from the Date would skip rows.
      batch = batch.where(
        sql<boolean>`(audit_events.at, audit_events.id) < (select c.at, c.id from audit_events c where c.id = ${after.id})`,
      );
    }
    return batch.limit(BATCH).execute();
  };
  const first = await batchAfter(null);

  async function* lines() {
    yield `\uFEFF${csvLine(header)}`; // BOM: spreadsheets then read the UTF-8 (Chinese, Khmer) correctly
    let rows = first;
    let sent = 0;
    try {
      for (;;) {
        for (const r of rows) {
          yield csvLine([
            when(r.at),
            r.actor_username,
            r.actor_role,
            r.action,
            `${r.target_type} ${r.target_id}`,
            r.loan_number,
            describeChanges(r.changes),
            r.reason,
            r.ip,
            actionText(lang, r.action),
            write.role(r.actor_role),
            auditChangeLines(r.changes, (field) => auditFieldLabel(labels, field), write).join('; '),
          ]);
        }
        sent += rows.length;
        if (rows.length < BATCH) return;
        rows = await batchAfter(rows[rows.length - 1]!);
      }
    } catch (error) {
      log.error(
        { err: error, rowsSent: sent },
        'audit CSV export failed mid-stream; the download is cut off',
      );
      throw error;
    }
  }
  return Readable.from(lines());
}
