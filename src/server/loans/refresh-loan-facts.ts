import type { Transaction } from 'kysely';
import { deriveLoanFacts, type LoanFacts } from '../../domain/loan/repayments';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { today } from '../lib/clock';
import { type LoanForPosition, loadLoanRecords } from './loan-position';

type FactsDeps = Pick<AppDeps, 'clock' | 'config'>;

/**
 * Recomputes and stores the facts of one loan (docs/decisions/012) from its records, as of today. Call it in
 * the transaction of every money event — a payout marked paid, a repayment recorded (staff, webhook, an
 * unapplied payment applied), a reversal, new terms — after the loan row is locked and the event written, so
 * the stored facts never disagree with the records they come from.
 */
export async function refreshLoanFacts(
  trx: Transaction<Database>,
  deps: FactsDeps,
  loan: LoanForPosition,
): Promise<LoanFacts> {
  const { records } = await loadLoanRecords(trx, loan, deps.config.timeZone);
  const facts = deriveLoanFacts(records, today(deps));
  await trx
    .updateTable('applications')
    .set({
      outstanding_principal_minor: facts.outstandingPrincipalMinor,
      next_due_on: facts.nextDueOn,
      next_due_minor: facts.nextDueMinor,
      overdue_from: facts.overdueFrom,
      principal_step_minor: facts.principalStepMinor,
      principal_step_on: facts.principalStepOn,
      facts_as_of: facts.asOf,
      unpaid_instalments: JSON.stringify(facts.unpaidInstalments.map((i) => [i.dueOn, i.unpaidMinor])),
    })
    .where('id', '=', loan.id)
    .execute();
  return facts;
}

/**
 * Computes the facts of every loan listed in `loan_facts_stale` (those paid out before migration 008), in
 * batches of `batchSize`, each batch one transaction that locks its loans like a money event does. Safe to
 * run again and on several instances at once (`skip locked`): a loan is refreshed, then taken off the list.
 * A loan whose records cannot be replayed is logged and taken off too, so the start never loops on it.
 * Returns how many loans were refreshed.
 */
export async function backfillLoanFacts(
  deps: FactsDeps & Pick<AppDeps, 'db' | 'log'>,
  batchSize = 500,
): Promise<number> {
  let refreshed = 0;
  for (;;) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const batch = await trx
        .selectFrom('loan_facts_stale')
        .select('application_id')
        .orderBy('application_id')
        .limit(batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (batch.length === 0) return 0;
      const ids = batch.map((row) => row.application_id);
      const loans = await trx
        .selectFrom('applications')
        .select(['id', 'term_months', 'terms'])
        .where('id', 'in', ids)
        .orderBy('id')
        .forUpdate()
        .execute();
      for (const loan of loans) {
        try {
          await refreshLoanFacts(trx, deps, loan);
          refreshed += 1;
        } catch (error) {
          deps.log.error({ err: error, loanId: loan.id }, 'loan facts could not be computed');
        }
      }
      await trx.deleteFrom('loan_facts_stale').where('application_id', 'in', ids).execute();
      return batch.length;
    });
    if (done === 0) return refreshed;
  }
}
