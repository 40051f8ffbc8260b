import { type SelectQueryBuilder, sql } from 'kysely';
import type { AuditEventDto, AuditQuery } from '../../../domain/schemas/staff';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { loanNumberMatchesSql } from '../../lib/loan-number-search';
import { cappedTotal, pageWindow, toPage } from '../../lib/paging';

type AuditSelect = SelectQueryBuilder<
  Database & { loan: Database['applications'] },
  'audit_events' | 'loan',
  object
>;

/** The filtered audit query, shared by the page and the CSV export so they can never disagree. */
export function filteredAuditEvents(
  deps: AppDeps,
  query: Omit<AuditQuery, 'page'>,
  /** false: the loan is joined only to filter by its number (a list's keys read the audit index alone). */
  withLoan = true,
) {
  const tz = deps.config.timeZone;
  const events = deps.db.selectFrom('audit_events');
  // Even an unused left join keeps loan_id needed, so PostgreSQL could no longer read the keys from the
  // index alone.
  let base = (withLoan || query.loan
    ? events.leftJoin('applications as loan', 'loan.id', 'audit_events.loan_id')
    : events) as unknown as AuditSelect;
  if (query.actor) {
    base = base.where(
      sql`lower(coalesce(audit_events.actor_username, ''))`,
      'like',
      `%${escapeLike(query.actor.toLowerCase())}%`,
    );
  }
  if (query.action) base = base.where('audit_events.action', 'like', `%${escapeLike(query.action)}%`);
  if (query.loan) base = base.where(loanNumberMatchesSql('loan.loan_number', query.loan));
  // Dates are whole days in the configured time zone, both ends included.
  if (query.from)
    base = base.where(
      'audit_events.at',
      '>=',
      sql<Date>`(${query.from}::date)::timestamp at time zone ${tz}`,
    );
  if (query.to)
    base = base.where(
      'audit_events.at',
      '<',
      sql<Date>`(${query.to}::date + 1)::timestamp at time zone ${tz}`,
    );
  return base;
}

const columns = [
  'audit_events.id',
  'audit_events.at',
  'audit_events.actor_username',
  'audit_events.actor_role',
  'audit_events.action',
  'audit_events.target_type',
  'audit_events.target_id',
  'audit_events.changes',
  'audit_events.reason',
  'audit_events.ip',
  'loan.loan_number',
] as const;

export type AuditRow = {
  id: number;
  at: Date;
  actor_username: string | null;
  actor_role: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  reason: string | null;
  ip: string | null;
  loan_number: string | null;
};

export function toAuditDto(r: AuditRow): AuditEventDto {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actorUsername: r.actor_username,
    actorRole: r.actor_role,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    loanNumber: r.loan_number,
    changes: r.changes,
    reason: r.reason,
    ip: r.ip,
  };
}

export function selectAuditRows(base: ReturnType<typeof filteredAuditEvents>) {
  return base
    .select([...columns] as never)
    .orderBy('audit_events.at', 'desc')
    .orderBy('audit_events.id', 'desc') as unknown as SelectQueryBuilder<Database, 'audit_events', AuditRow>;
}

/**
 * One page of the audit log, newest first: keys and the capped total from the (at, id) index (migration
 * 017), in one statement; the CSV export reads the same filtered query in full.
 */
export async function listAuditEvents(deps: AppDeps, query: AuditQuery) {
  const keys = filteredAuditEvents(deps, query, false).select(['audit_events.id', 'audit_events.at']);
  const order = [
    ['at', 'desc'],
    ['id', 'desc'],
  ] as const;
  const rows = (await deps.db
    .selectFrom(pageWindow(deps.db, keys, order, query.page).as('page'))
    .innerJoin('audit_events', 'audit_events.id', 'page.id')
    .leftJoin('applications as loan', 'loan.id', 'audit_events.loan_id')
    .select([...columns, 'page.window_count'])
    .orderBy('page.at', 'desc')
    .orderBy('page.id', 'desc')
    .execute()) as unknown as (AuditRow & { window_count: number | string })[];
  const counted = await cappedTotal(deps.db, keys, rows[0]?.window_count, query.page);
  return toPage(rows.map(toAuditDto), counted, query.page);
}
