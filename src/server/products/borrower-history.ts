import type { Kysely, Transaction } from 'kysely';
import { todayIn } from '../../domain/date-text';
import { maxDaysLate, type RepaidLoan } from '../../domain/loan/products';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { loanPosition } from '../loans/loan-position';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The borrower's loans repaid in full (status `closed`), each with the most days an instalment was paid
 * late: the loan is replayed as of the day it closed (read-only, with its own terms) and its repayments are
 * laid against that schedule (`maxDaysLate`, docs/decisions/034). A borrower has a handful of loans, so this
 * is read when asked rather than stored.
 */
export async function repaidLoansOf(
  db: Db,
  deps: Pick<AppDeps, 'config'>,
  borrowerId: string,
): Promise<RepaidLoan[]> {
  const closed = await db
    .selectFrom('applications')
    .select(['id', 'term_months', 'terms', 'closed_at'])
    .where('borrower_id', '=', borrowerId)
    .where('status', '=', 'closed')
    .orderBy('submitted_at')
    .execute();
  const repaid: RepaidLoan[] = [];
  for (const loan of closed) {
    const asOf = todayIn(deps.config.timeZone, loan.closed_at ?? new Date());
    const { position } = await loanPosition(db, loan, deps, asOf);
    repaid.push({
      maxDaysLate: maxDaysLate(
        position.schedule,
        position.repayments.map((r) => ({
          receivedOn: r.receivedOn,
          amountMinor: r.amountMinor,
          reversedOn: r.reversedOn,
        })),
      ),
    });
  }
  return repaid;
}
