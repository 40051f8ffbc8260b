import { sql } from 'kysely';
import { approvedStatuses, awaitingDecisionStatuses, type LoanStatus } from '../../../domain/loan/status';
import type { DashboardSummary } from '../../../domain/schemas/staff';
import { QUARTER_ORIGIN, quarterPart } from '../../db/migrations/045-dashboard-today-quarters';
import { executePreparedSql } from '../../db/prepared-statements';
import type { AppDeps } from '../../deps';

/** Decided against; the pie chart's third slice. */
const rejectedStatuses: readonly LoanStatus[] = ['rejected'];

/**
 * The "Home Page Summary" figures in one statement that reads no whole table (issue #35, docs/decisions/042).
 * Counts, the borrower total, open complaints and the amount sum behind the average come from
 * `dashboard_figures`, which triggers keep current (migration 032); "today" figures sum today's quarter
 * hours, also kept by triggers (migration 045, docs/decisions/068: sign-ups and paid-out money in
 * `dashboard_figures`, each quarter's smallest and largest submitted amount in `application_quarters`). The
 * median time to resolve a complaint is exact: the resolve-hour histogram says which bucket holds the middle
 * one (or two), and those values are read at their offset in the expression index.
 * "Today" starts at midnight in the configured time zone. Approved counts every loan that passed approval
 * (`approvedStatuses`: approved, on hold or closed); the status lists come from the domain.
 */
export async function getDashboardSummary(deps: AppDeps): Promise<DashboardSummary> {
  const tz = deps.config.timeZone;
  // Named on PostgreSQL: planning this statement cost about as much as running it (2 ms at 1 M rows), and
  // nothing in its plan hangs on the time zone.
  const rows = await executePreparedSql(
    deps.db,
    sql<{
      registered_today: number;
      registered_total: string | null;
      min_loan_today: string | null;
      max_loan_today: string | null;
      disbursed_today: string;
      statuses: Record<string, number> | null;
      avg_loan: string | null;
      total: string | null;
      open_complaints: string | null;
      median_resolve_seconds: number | null;
    }>`
    with midnight as (select (date_trunc('day', now() at time zone ${tz}) at time zone ${tz}) as start),
    -- Today's whole quarter hours start at whole (migration 045); a zone whose midnight is not on a
    -- quarter hour has the minutes before it read from the indexes.
    day as materialized (
      select start, whole, ${quarterPart(sql`whole`)} as whole_part
      from (select start, date_bin('15 minutes', start + interval '15 minutes' - interval '1 microsecond',
                                   ${sql.raw(QUARTER_ORIGIN)}) as whole
            from midnight) m
    ),
    statuses as (
      select part as status, sum(n) as n, sum(amount) as amount from dashboard_figures
      where figure = 'applications' group by part
    ),
    resolve as (
      select part::bigint as hour, sum(n)::bigint as n from dashboard_figures
      where figure = 'resolve_hours' group by part having sum(n) > 0
    ),
    ranked as materialized (
      -- bigint, not numeric: the middle ranks below are integer divisions.
      select hour, n, (sum(n) over (order by hour))::bigint - n as before from resolve
    ),
    ranks as (
      select (total - 1) / 2 as k from (select sum(n)::bigint as total from resolve) t where total > 0
      union all
      select total / 2 from (select sum(n)::bigint as total from resolve) t where total > 0
    ),
    -- The bucket holding each middle rank (the last one starting at or before it), and the offset in it.
    picks as materialized (
      select b.hour, k.k - b.before as off from ranks k
      cross join lateral (select hour, before from ranked r where r.before <= k.k order by r.before desc limit 1) b
    ),
    middle as materialized (
      select (select extract(epoch from c.resolved_at - c.created_at) from complaints c
              where c.status = 'resolved'
                and extract(epoch from c.resolved_at - c.created_at) >= p.hour * 3600
                and extract(epoch from c.resolved_at - c.created_at) < (p.hour + 1) * 3600
              order by extract(epoch from c.resolved_at - c.created_at)
              offset p.off limit 1)::float8 as v
      from picks p
    )
    select
      (select coalesce(sum(n), 0) from dashboard_figures, day
         where figure = 'borrowers_quarter' and part >= day.whole_part)
        + (select count(*) from users, day
           where role = 'borrower' and created_at >= day.start and created_at < day.whole) as registered_today,
      (select sum(n) from dashboard_figures where figure = 'borrowers') as registered_total,
      -- least/greatest skip a null: a day with no part-quarter, or no whole quarter yet.
      least((select min(low_amount) from application_quarters, day where quarter >= day.whole),
            (select min(amount) from applications, day
             where submitted_at >= day.start and submitted_at < day.whole)) as min_loan_today,
      greatest((select max(high_amount) from application_quarters, day where quarter >= day.whole),
               (select max(amount) from applications, day
                where submitted_at >= day.start and submitted_at < day.whole)) as max_loan_today,
      (select coalesce(sum(amount), 0) from dashboard_figures, day
         where figure = 'paid_quarter' and part >= day.whole_part)
        + (select coalesce(sum(amount), 0) from disbursements, day
           where status = 'paid' and decided_at >= day.start and decided_at < day.whole) as disbursed_today,
      (select json_object_agg(status, n) from statuses where n <> 0) as statuses,
      (select round(sum(amount)::numeric / nullif(sum(n), 0)) from statuses) as avg_loan,
      (select sum(n) from statuses) as total,
      (select sum(n) from dashboard_figures where figure = 'open_complaints') as open_complaints,
      -- As percentile_cont(0.5) interpolates between the two middle values (float8).
      (select round(min(v) + (max(v) - min(v)) * 0.5) from middle) as median_resolve_seconds
  `,
  );
  const r = rows[0]!;
  const count = (statuses: readonly LoanStatus[]) =>
    statuses.reduce((sum, status) => sum + Number(r.statuses?.[status] ?? 0), 0);
  return {
    registeredToday: Number(r.registered_today),
    registeredTotal: Number(r.registered_total ?? 0),
    minLoanTodayMinor: r.min_loan_today === null ? null : Number(r.min_loan_today),
    maxLoanTodayMinor: r.max_loan_today === null ? null : Number(r.max_loan_today),
    disbursedTodayMinor: Number(r.disbursed_today),
    approvedLoans: count(approvedStatuses),
    pendingLoans: count(awaitingDecisionStatuses),
    rejectedLoans: count(rejectedStatuses),
    avgLoanMinor: r.avg_loan === null ? null : Number(r.avg_loan),
    totalLoans: Number(r.total ?? 0),
    openComplaints: Number(r.open_complaints ?? 0),
    medianResolveSeconds: r.median_resolve_seconds === null ? null : Number(r.median_resolve_seconds),
    timeZone: tz,
  };
}
