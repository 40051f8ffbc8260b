import { type RawBuilder, sql } from 'kysely';
import type { LoanTerms } from '../../domain/loan/loan-terms';
import type { AppDeps } from '../deps';

/**
 * Gives every loan signed before migration 024 its terms snapshot (docs/decisions/033): the rate it was
 * signed at (`monthly_rate_bp`), the fees its disclosure names, and the late charge and grace days of
 * `inForce` — the settings in force when this first runs, which the loan was being charged under until
 * then. Written once; a loan that has terms is never touched. Then `overdue_from` for every loan whose
 * stored facts lack it. Batched (one transaction each) so a large book does not hold one long lock; safe to
 * run on several instances at once. Returns how many loans got terms.
 */
export async function backfillLoanTerms(
  deps: Pick<AppDeps, 'db'>,
  inForce: Pick<LoanTerms, 'lateChargeMonthlyBp' | 'graceDays'>,
  batchSize = 5_000,
): Promise<number> {
  let filled = 0;
  // Each pass is asked first whether it has anything to do: an UPDATE that changes no row still fires
  // applications' statement triggers (dashboard figures, answer announcements), which cost a PGlite start
  // a fifth of a second of CPU (issue #35) on a database that never needed this.
  for (;;) {
    if (!(await anyRow(deps, sql`terms is null`))) break;
    const result = await sql`
      update applications a set terms = jsonb_build_object(
        'monthlyRateBp', a.monthly_rate_bp,
        'fees', jsonb_build_object(
          'flatMinor', coalesce((a.disclosure->'fees'->>'flatMinor')::bigint, 0),
          'percentBp', coalesce((a.disclosure->'fees'->>'percentBp')::integer, 0),
          'collection', 'deducted_from_payout'),
        'lateChargeMonthlyBp', ${inForce.lateChargeMonthlyBp}::integer,
        'graceDays', ${inForce.graceDays}::integer,
        'rounding', 'half_up_per_instalment')
      where a.id in (
        select id from applications where terms is null order by id limit ${batchSize} for update skip locked
      )`.execute(deps.db);
    const n = Number(result.numAffectedRows ?? 0);
    filled += n;
    if (n < batchSize) break;
  }
  for (;;) {
    if (!(await anyRow(deps, sql`next_due_on is not null and overdue_from is null and terms is not null`)))
      break;
    const result = await sql`
      update applications a
      set overdue_from = a.next_due_on + (a.terms->>'graceDays')::integer + 1
      where a.id in (
        select id from applications
        where next_due_on is not null and overdue_from is null and terms is not null
        order by id limit ${batchSize} for update skip locked
      )`.execute(deps.db);
    if (Number(result.numAffectedRows ?? 0) < batchSize) break;
  }
  return filled;
}

/** Whether some application matches `condition`. */
async function anyRow(deps: Pick<AppDeps, 'db'>, condition: RawBuilder<unknown>): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from applications where ${condition}) as found`.execute(deps.db);
  return rows[0]?.found === true;
}
