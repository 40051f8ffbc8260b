import { AppError } from '../../../domain/errors';
import { deriveLoanPosition, isNothingOwed } from '../../../domain/loan/repayments';
import { statusAfter, wasApproved } from '../../../domain/loan/status';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { loadLoanRecords } from '../../loans/loan-position';
import { lockApplication } from '../../loans/lock-application';
import { refreshLoanFacts } from '../../loans/refresh-loan-facts';
import { queueBorrowerMessage } from '../../notify/sms-outbox';

const alreadyReversed = () => new AppError('REPAYMENT_ALREADY_REVERSED');

/**
 * Undoes a repayment recorded by mistake: a reversal record with a reason, never an edit. From today the
 * repayment counts as never received. If the loan was closed and now owes money again, it returns to
 * repayment (`approved`) with the same reason, in the same transaction.
 */
export async function reverseRepayment(
  deps: AppDeps,
  ctx: StaffContext,
  repaymentId: string,
  reason: string,
) {
  const result = await deps.db.transaction().execute(async (trx) => {
    const target = await trx
      .selectFrom('repayments')
      .select(['id', 'application_id', 'amount', 'reference', 'channel'])
      .where('id', '=', repaymentId)
      .executeTakeFirst();
    if (!target) throw new AppError('NOT_FOUND');
    // The loan row is the lock every money change of this loan queues on.
    const loan = await lockApplication(trx, target.application_id);
    if (!wasApproved(loan.status)) throw new AppError('LOAN_NOT_REPAYING');
    const reversed = await trx
      .selectFrom('repayment_reversals')
      .select('repayment_id')
      .where('repayment_id', '=', repaymentId)
      .executeTakeFirst();
    if (reversed) throw alreadyReversed();
    try {
      await trx
        .insertInto('repayment_reversals')
        .values({ repayment_id: repaymentId, reason, reversed_by: ctx.staff.id })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyReversed();
      throw error;
    }
    await recordAudit(trx, ctx.actor, {
      action: 'repayment.reverse',
      targetType: 'repayment',
      targetId: repaymentId,
      loanId: loan.id,
      before: { reversed: false },
      after: { reversed: true, amountMinor: target.amount, reference: target.reference },
      reason,
    });
    await notifyBorrower(trx, {
      borrowerId: loan.borrower_id,
      applicationId: loan.id,
      kind: 'repayment_reversed',
      message: reason,
      data: { amountMinor: target.amount, reference: target.reference },
    });
    await queueBorrowerMessage(
      trx,
      deps,
      { borrowerId: loan.borrower_id, applicationId: loan.id },
      { kind: 'payment_reversed', loanNumber: loan.loan_number, amountMinor: target.amount, reason },
    );

    let status = loan.status;
    if (loan.status === 'closed') {
      const { records } = await loadLoanRecords(trx, loan, deps.config.timeZone);
      const position = deriveLoanPosition(records, today(deps));
      if (!isNothingOwed(position)) {
        status = statusAfter('reopen', loan.status);
        await trx
          .updateTable('applications')
          .set({ status, closed_at: null })
          .where('id', '=', loan.id)
          .execute();
        await recordAudit(trx, ctx.actor, {
          action: 'loan.reopen',
          targetType: 'loan',
          targetId: loan.id,
          loanId: loan.id,
          before: { status: 'closed' },
          after: { status: 'approved' },
          reason,
        });
        await notifyBorrower(trx, {
          borrowerId: loan.borrower_id,
          applicationId: loan.id,
          kind: 'loan_reopened',
          message: reason,
          data: { payoffMinor: position.payoffMinor },
        });
      }
    }
    await refreshLoanFacts(trx, deps, loan);
    return { id: repaymentId, loanStatus: status };
  });
  publishAfterCommit(deps, { type: 'repayments-changed' });
  return result;
}
