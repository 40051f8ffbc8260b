import { sql } from 'kysely';
import { approvedStatuses, awaitingDecisionStatuses, type LoanStatus } from '../../../domain/loan/status';
import type { DashboardSummary } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { sqlList } from '../../lib/sql-lists';

/** Decided against; the pie chart's third slice. */
const rejectedStatuses: readonly LoanStatus[] = ['rejected'];

/**
 * The "Home Page Summary" figures, all computed by the database in one statement. "Today" starts at
 * midnight in the configured time zone. Approved counts every loan that passed approval (`approvedStatuses`:
 * approved, on hold or closed); the status lists come from the domain, written into the SQL as literals.
 */
export async function getDashboardSummary(deps: AppDeps): Promise<DashboardSummary> {
  const tz = deps.config.timeZone;
  const { rows } = await sql<{
    registered_today: number;
    registered_total: number;
    min_loan_today: number | null;
    max_loan_today: number | null;
    disbursed_today: number;
    approved: number;
    pending: number;
    rejected: number;
    avg_loan: string | null;
    total: number;
    open_complaints: number;
    median_resolve_seconds: string | null;
  }>`
    with day as (select (date_trunc('day', now() at time zone ${tz}) at time zone ${tz}) as start)
    select
      (select count(*) from users, day where role = 'borrower' and created_at >= day.start) as registered_today,
      (select count(*) from users where role = 'borrower') as registered_total,
      (select min(amount) from applications, day where submitted_at >= day.start) as min_loan_today,
      (select max(amount) from applications, day where submitted_at >= day.start) as max_loan_today,
      (select coalesce(sum(amount), 0) from disbursements, day
         where status = 'paid' and decided_at >= day.start) as disbursed_today,
      (select count(*) from applications where status in (${sqlList(approvedStatuses)})) as approved,
      (select count(*) from applications where status in (${sqlList(awaitingDecisionStatuses)})) as pending,
      (select count(*) from applications where status in (${sqlList(rejectedStatuses)})) as rejected,
      a.avg_loan, a.total,
      (select count(*) from complaints where status <> 'resolved') as open_complaints,
      (select round(percentile_cont(0.5) within group (order by extract(epoch from resolved_at - created_at)))
         from complaints where status = 'resolved') as median_resolve_seconds
    from (select round(avg(amount)) as avg_loan, count(*) as total from applications) a
  `.execute(deps.db);
  const r = rows[0]!;
  return {
    registeredToday: Number(r.registered_today),
    registeredTotal: Number(r.registered_total),
    minLoanTodayMinor: r.min_loan_today === null ? null : Number(r.min_loan_today),
    maxLoanTodayMinor: r.max_loan_today === null ? null : Number(r.max_loan_today),
    disbursedTodayMinor: Number(r.disbursed_today),
    approvedLoans: Number(r.approved),
    pendingLoans: Number(r.pending),
    rejectedLoans: Number(r.rejected),
    avgLoanMinor: r.avg_loan === null ? null : Number(r.avg_loan),
    totalLoans: Number(r.total),
    openComplaints: Number(r.open_complaints),
    medianResolveSeconds: r.median_resolve_seconds === null ? null : Number(r.median_resolve_seconds),
    timeZone: tz,
  };
}
