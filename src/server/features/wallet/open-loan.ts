import { type RawBuilder, sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { loanBalance } from '../../../domain/loan/balance';
import { canWithdraw, runningStatuses } from '../../../domain/loan/status';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { ApplicationRow } from '../../lib/applications';
import { withdrawnSql } from '../../lib/loan-balance';
import { firstPayoutSql, lastDueAfter } from '../../loans/loan-position';
import { termsChangePendingSql } from '../../loans/terms-changes';

/** What a withdrawal is checked against: the running loan and what its balance and terms depend on. */
export interface LoanForWithdrawalRead {
  loan: ApplicationRow | undefined;
  withdrawnMinor: number;
  /** A change of terms waits for the borrower (docs/decisions/018). */
  termsChangePending: boolean;
  /** The first payout's time: the withdrawal period ends at the last due date it gives. */
  firstPaidAt: Date | null;
}

/** The borrower's running loan (approved or on hold), every column. */
export function runningLoanQuery(db: AppDeps['db'] | Transaction<Database>, borrowerId: string) {
  return db
    .selectFrom('applications')
    .selectAll()
    .where('borrower_id', '=', borrowerId)
    .where('status', 'in', runningStatuses);
}

/** What a withdrawal's checks need besides the loan row, as columns to select next to it. */
export function loanFactsSql(id: RawBuilder<string>) {
  return [
    withdrawnSql(id).as('withdrawn'),
    termsChangePendingSql(id).as('terms_change_pending'),
    firstPayoutSql(id).as('first_paid_at'),
  ] as const;
}

/** A row of `runningLoanQuery` with `loanFactsSql` as a read (the row must hold no other columns). */
export function toLoanRead(
  row:
    | (ApplicationRow & { withdrawn: number; terms_change_pending: boolean; first_paid_at: Date | null })
    | undefined,
): LoanForWithdrawalRead {
  if (!row) return { loan: undefined, withdrawnMinor: 0, termsChangePending: false, firstPaidAt: null };
  const { withdrawn, terms_change_pending, first_paid_at, ...loan } = row;
  return {
    loan,
    withdrawnMinor: Number(withdrawn),
    termsChangePending: terms_change_pending,
    firstPaidAt: first_paid_at,
  };
}

/**
 * Reads the borrower's running loan for a withdrawal. With `lock` (inside the withdrawal's transaction) the
 * loan row is locked first and the rest read by a second statement after the lock, so concurrent withdrawals
 * queue here and each one sees the balance the previous one left (`withdrawnSql` says why it takes two).
 * Without it (the early check before a code is sent or spent) everything comes with the row in one query.
 */
export async function readLoanForWithdrawal(
  db: AppDeps['db'] | Transaction<Database>,
  borrowerId: string,
  options: { lock: boolean },
): Promise<LoanForWithdrawalRead> {
  const running = runningLoanQuery(db, borrowerId);
  if (options.lock) {
    const loan = await running.forUpdate().executeTakeFirst();
    if (!loan) return { loan, withdrawnMinor: 0, termsChangePending: false, firstPaidAt: null };
    const row = await db.selectNoFrom(loanFactsSql(sql.val(loan.id))).executeTakeFirstOrThrow();
    return {
      loan,
      withdrawnMinor: Number(row.withdrawn),
      termsChangePending: row.terms_change_pending,
      firstPaidAt: row.first_paid_at,
    };
  }
  return toLoanRead(
    await running.select(loanFactsSql(sql.ref<string>('applications.id'))).executeTakeFirst(),
  );
}

/**
 * Checks a read loan for a withdrawal of `amountMinor`: it must exist, be running and not on hold
 * (`canWithdraw`), have no change of terms waiting, be inside its withdrawal period, and have that much
 * available (`loanBalance`). The checks run in this order, so the borrower sees the first that fails.
 */
export function checkLoanForWithdrawal(
  read: LoanForWithdrawalRead,
  amountMinor: number,
  /** `today`: the lender's civil date and time zone, for the end of the withdrawal period. */
  options: { today: string; timeZone: string },
): { loan: ApplicationRow; availableMinor: number } {
  const { loan } = read;
  if (!loan || loan.approved_amount === null) throw new AppError('LOAN_NOT_FOUND');
  if (!canWithdraw(loan.status)) {
    throw new AppError('WITHDRAWALS_PAUSED', { params: { message: loan.status_message ?? '' } });
  }
  // Nothing is withdrawn on terms the borrower has not accepted (docs/decisions/018). With `lock` this is
  // read after the loan row lock, which every writer of a change takes first.
  if (read.termsChangePending) throw new AppError('TERMS_CHANGE_AWAITS_YOU');
  // Interest runs from the first payout over the term: money paid out on or after the last due date could
  // not be repaid by any instalment (docs/decisions/010).
  const lastDue = lastDueAfter(read.firstPaidAt, loan.term_months, options.timeZone);
  if (lastDue !== null && options.today >= lastDue) {
    throw new AppError('WITHDRAWAL_PERIOD_ENDED', { params: { date: lastDue } });
  }
  const { availableMinor } = loanBalance({
    status: loan.status,
    approvedMinor: loan.approved_amount,
    withdrawnMinor: read.withdrawnMinor,
  });
  if (amountMinor > availableMinor) {
    throw new AppError('AMOUNT_EXCEEDS_BALANCE', { fields: { amount: 'AMOUNT_EXCEEDS_BALANCE' } });
  }
  return { loan, availableMinor };
}

/** The borrower's running loan, read (`readLoanForWithdrawal`) and checked (`checkLoanForWithdrawal`). */
export async function loanForWithdrawal(
  db: AppDeps['db'] | Transaction<Database>,
  borrowerId: string,
  amountMinor: number,
  options: { lock: boolean; today: string; timeZone: string },
): Promise<{ loan: ApplicationRow; availableMinor: number }> {
  const read = await readLoanForWithdrawal(db, borrowerId, options);
  return checkLoanForWithdrawal(read, amountMinor, options);
}

/** The withdrawal a code is for, without the plan: this loan, this amount, to this account. */
function withdrawalTarget(loan: ApplicationRow, amountMinor: number): string {
  return `loan=${loan.id};amount=${amountMinor};to=${loan.bank_name}|${loan.account_number}`;
}

/**
 * What a withdrawal code authorises: this loan, this amount, to this account, with the payment plan the
 * borrower was shown (`planDigest` of the re-disclosure, docs/decisions/010).
 */
export function withdrawalContext(loan: ApplicationRow, amountMinor: number, planDigest: string): string {
  return `${withdrawalTarget(loan, amountMinor)};plan=${planDigest}`;
}

/** Whether a code's context is for this loan, amount and account, whatever plan it was bound to. */
export function isContextForWithdrawal(context: string, loan: ApplicationRow, amountMinor: number): boolean {
  return context.startsWith(`${withdrawalTarget(loan, amountMinor)};plan=`);
}
