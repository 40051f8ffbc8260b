import { sql } from 'kysely';
import { addDays, addMonthsClamped } from '../../../domain/loan/calendar';
import { divRoundHalfUp } from '../../../domain/money';
import type { PortfolioSummary } from '../../../domain/schemas/portfolio';
import type { AppDeps } from '../../deps';
import { dateLiteral } from '../../lib/sql-lists';
import { runningLoanWithFactsSql } from '../../loans/loan-facts-sql';

/** Portfolio at risk counts loans more than this many days past due. */
const PAR_DAYS = 30;

/**
 * The dashboard's portfolio figures on `asOf` (today in the lender's time zone), all by SQL: the loan book
 * from the stored facts of running loans (docs/decisions/012), their sum kept by triggers (migration 037),
 * the overdue count and PAR30 from the same facts kept per day (migration 039: overdue means what
 * `overdueOnSql` says, at risk what `outstandingPrincipalSql` owes), money collected this calendar month from
 * the repayments not reversed (kept per month by triggers, migration 038), the month's paid-out fees per UTC
 * day (migration 040).
 */
export async function getPortfolioSummary(deps: AppDeps, asOf: string): Promise<PortfolioSummary> {
  const monthStart = `${asOf.slice(0, 8)}01`;
  const monthEnd = addMonthsClamped(monthStart, 1);
  // The month's bounds as instants in the lender's time zone, for the payouts' decided_at.
  const instant = (day: string) => sql`(${day}::date)::timestamp at time zone ${deps.config.timeZone}`;
  const today = dateLiteral(asOf);
  const running = runningLoanWithFactsSql();
  const parDay = addDays(asOf, -PAR_DAYS);
  // One statement, one round trip. The principal as of each loan's facts is kept by triggers (migration
  // 037), and per day the loans that become overdue and the principal of the loans next due (migration 039);
  // the principal steps already due are one range of their own index (few: the facts are recomputed as they
  // come due). Repayments of the month not reversed are kept per month (migration 038). The month's paid-out
  // fees: the UTC days from the one after the month's first instant to the one of its end are kept by
  // triggers (migration 040), the (part-)days at its two ends are read from the paid payouts' index.
  const { rows } = await sql<{
    outstanding: string;
    overdue: string;
    at_risk: string;
    collected: string;
    fees: string;
  }>`
    with steps as (
      select coalesce(sum(applications.principal_step_minor), 0) as due,
             coalesce(sum(applications.principal_step_minor)
               filter (where applications.next_due_on < ${dateLiteral(parDay)}), 0) as due_at_risk
      from applications
      where ${running} and applications.principal_step_on <= ${today}),
    m as (select ${instant(monthStart)} as s, ${instant(monthEnd)} as e),
    d as (
      select m.s, m.e,
        date_trunc('day', m.s at time zone 'UTC') at time zone 'UTC' + interval '24 hours' as first_day,
        date_trunc('day', m.e at time zone 'UTC') at time zone 'UTC' as end_day
      from m)
    select
      (select coalesce(sum(amount), 0) from dashboard_figures where figure = 'book') + steps.due as outstanding,
      (select coalesce(sum(n), 0) from dashboard_figures
        where figure = 'overdue_from' and part <= ${asOf}) as overdue,
      (select coalesce(sum(amount), 0) from dashboard_figures where figure = 'next_due' and part < ${parDay})
        + steps.due_at_risk as at_risk,
      (select coalesce(sum(amount), 0) from dashboard_figures
        where figure = 'collected' and part = ${monthStart.slice(0, 7)}) as collected,
      (select coalesce(sum(amount), 0) from dashboard_figures
        where figure = 'paid_fees'
          and part >= to_char(d.first_day at time zone 'UTC', 'YYYY-MM-DD')
          and part < to_char(d.end_day at time zone 'UTC', 'YYYY-MM-DD'))
      + (select coalesce(sum(fee_minor), 0) from disbursements
          where status = 'paid' and decided_at >= d.s and decided_at < d.first_day)
      + (select coalesce(sum(fee_minor), 0) from disbursements
          where status = 'paid' and decided_at >= d.end_day and decided_at < d.e) as fees
    from steps, d`.execute(deps.db);
  const figures = rows[0]!;
  const outstandingMinor = Number(figures.outstanding);
  const atRiskMinor = Number(figures.at_risk);
  return {
    asOf,
    outstandingPrincipalMinor: outstandingMinor,
    collectedThisMonthMinor: Number(figures.collected),
    feesThisMonthMinor: Number(figures.fees),
    overdueLoans: Number(figures.overdue),
    par30Bp:
      outstandingMinor === 0
        ? 0
        : Number(divRoundHalfUp(BigInt(atRiskMinor) * 10_000n, BigInt(outstandingMinor))),
  };
}
