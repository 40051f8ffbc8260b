import type { Transaction } from 'kysely';
import { AppError } from '../../domain/errors';
import { annuityPaymentMinor } from '../../domain/loan/schedule';
import { awaitsDecision } from '../../domain/loan/status';
import { isStaffAmountAllowed } from '../../domain/loan/terms';
import { MINOR_PER_MAJOR, toMinor } from '../../domain/money';
import { notifyBorrower, recordAudit } from '../audit/audit';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import { publishAfterCommit } from '../events/publish-after-commit';
import { withdrawnMinor } from '../lib/loan-balance';
import { todayIn } from '../lib/today';
import { lastDueDate } from './loan-position';
import { lockRunningLoan } from './lock-running-loan';
import { refreshLoanFacts } from './refresh-loan-facts';
import type { StaffContext } from './staff-context';

export type LoanStage = 'pending' | 'approved';

export interface LoanTermsInput {
  amount: number;
  termMonths: number;
  reason?: string | undefined;
}

/**
 * Staff "Update Loan": a new amount and term, with the monthly payment recomputed by the domain math.
 * On an approved loan the amount can never go below what the borrower has already withdrawn.
 */
export async function updateLoanTerms(
  deps: AppDeps,
  ctx: StaffContext,
  queue: LoanStage,
  id: string,
  input: LoanTermsInput,
) {
  const amountMinor = toMinor(input.amount);
  const updated = await deps.db.transaction().execute(async (trx) => {
    // Pending terms while the application awaits its decision; an approved amount while the loan runs.
    const before =
      queue === 'pending' ? await lockUndecided(trx, id) : await lockRunningLoan(trx, id, 'NOT_FOUND');
    const currentMinor = queue === 'approved' ? (before.approved_amount ?? before.amount) : before.amount;
    if (!isStaffAmountAllowed(input.amount, currentMinor / MINOR_PER_MAJOR, deps.config.loanProduct)) {
      throw new AppError('LOAN_UPDATE_INVALID', { fields: { amount: 'LOAN_UPDATE_INVALID' } });
    }
    if (queue === 'approved') {
      // After the lock: a withdrawal committed while we waited is counted.
      const withdrawn = await withdrawnMinor(trx, id);
      if (amountMinor < withdrawn) {
        throw new AppError('AMOUNT_BELOW_WITHDRAWN', {
          fields: { amount: 'AMOUNT_BELOW_WITHDRAWN' },
          params: { amountMinor: withdrawn },
        });
      }
      // Every payout already made must fall before the last due date of the new term, or nothing could
      // repay it (the schedule runs from the first payout: docs/decisions/010).
      const newLastDue = await lastDueDate(trx, { id, term_months: input.termMonths }, deps.config.timeZone);
      const latestPayout = await trx
        .selectFrom('disbursements')
        .select((eb) => eb.fn.max('decided_at').as('at'))
        .where('application_id', '=', id)
        .where('status', '=', 'paid')
        .executeTakeFirst();
      if (
        newLastDue !== null &&
        latestPayout?.at &&
        todayIn(deps.config.timeZone, new Date(latestPayout.at)) >= newLastDue
      ) {
        throw new AppError('LOAN_TERM_TOO_SHORT', {
          fields: { termMonths: 'LOAN_TERM_TOO_SHORT' },
          params: { date: newLastDue },
        });
      }
    }
    const monthlyPayment = annuityPaymentMinor(amountMinor, input.termMonths, before.monthly_rate_bp);
    const after = await trx
      .updateTable('applications')
      .set({
        amount: amountMinor,
        term_months: input.termMonths,
        monthly_payment: monthlyPayment,
        ...(queue === 'approved' ? { approved_amount: amountMinor } : {}),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // A new term re-shapes the schedule of money already paid out: the stored facts follow it.
    if (queue === 'approved') await refreshLoanFacts(trx, deps, after);
    const pick = (r: typeof before) => ({
      amount: r.amount,
      approvedAmount: r.approved_amount,
      termMonths: r.term_months,
      monthlyPayment: r.monthly_payment,
    });
    await recordAudit(trx, ctx.actor, {
      action: queue === 'pending' ? 'application.update_terms' : 'loan.update_terms',
      targetType: queue === 'pending' ? 'application' : 'loan',
      targetId: id,
      loanId: id,
      before: pick(before),
      after: pick(after),
      reason: input.reason ?? null,
    });
    await notifyBorrower(trx, {
      borrowerId: after.borrower_id,
      applicationId: id,
      kind: 'terms_changed',
      message: input.reason ?? null,
      data: {
        amountMinor: after.amount,
        termMonths: after.term_months,
        monthlyPaymentMinor: after.monthly_payment,
        previousAmountMinor: before.amount,
        previousTermMonths: before.term_months,
      },
    });
    return after;
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
  return updated;
}

/** An application whose terms may still change: it awaits its decision (`awaitsDecision`), row locked. */
async function lockUndecided(trx: Transaction<Database>, id: string) {
  const row = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  if (!awaitsDecision(row.status)) throw new AppError('ALREADY_DECIDED');
  return row;
}
