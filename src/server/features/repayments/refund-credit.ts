import { AppError } from '../../../domain/errors';
import { deriveLoanPosition } from '../../../domain/loan/repayments';
import { wasApproved } from '../../../domain/loan/status';
import type { RefundCreditInput } from '../../../domain/schemas/repayments';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { loadLoanRecords } from '../../loans/loan-position';
import { lockApplication } from '../../loans/lock-application';
import { queueBorrowerMessage } from '../../notify/sms-outbox';

const referenceUsed = () =>
  new AppError('REPAYMENT_REFERENCE_USED', { fields: { reference: 'REPAYMENT_REFERENCE_USED' } });

/**
 * Finance records money held for the borrower (received above the payoff, issue #31) as sent back: at most
 * the credit held today, on the locked loan row so two refunds at once cannot send more; a record with its
 * transfer reference (append-only), audited and told to the borrower.
 */
export async function refundCredit(
  deps: AppDeps,
  ctx: StaffContext,
  loanId: string,
  input: RefundCreditInput,
) {
  const result = await deps.db.transaction().execute(async (trx) => {
    const loan = await lockApplication(trx, loanId);
    if (!wasApproved(loan.status)) throw new AppError('LOAN_NOT_REPAYING');
    const asOf = today(deps);
    const { records } = await loadLoanRecords(trx, loan, deps.config.timeZone);
    const { creditMinor } = deriveLoanPosition(records, asOf);
    if (input.amount > creditMinor) {
      throw new AppError('REFUND_EXCEEDS_CREDIT', {
        fields: { amount: 'REFUND_EXCEEDS_CREDIT' },
        params: { creditMinor, date: asOf },
      });
    }
    let refund: { id: string };
    try {
      refund = await trx
        .insertInto('credit_refunds')
        .values({
          application_id: loan.id,
          amount: input.amount,
          reference: input.reference,
          refunded_by: ctx.staff.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error, 'credit_refunds_reference')) throw referenceUsed();
      throw error;
    }
    await recordAudit(trx, ctx.actor, {
      action: 'credit.refund',
      targetType: 'loan',
      targetId: loan.id,
      loanId: loan.id,
      before: { creditMinor },
      after: {
        creditMinor: creditMinor - input.amount,
        amountMinor: input.amount,
        reference: input.reference,
      },
    });
    await notifyBorrower(trx, {
      borrowerId: loan.borrower_id,
      applicationId: loan.id,
      kind: 'credit_refunded',
      data: {
        amountMinor: input.amount,
        reference: input.reference,
        creditLeftMinor: creditMinor - input.amount,
      },
    });
    await queueBorrowerMessage(
      trx,
      deps,
      { borrowerId: loan.borrower_id, applicationId: loan.id },
      {
        kind: 'credit_refunded',
        loanNumber: loan.loan_number,
        amountMinor: input.amount,
        reference: input.reference,
      },
    );
    return { id: refund.id, creditMinor: creditMinor - input.amount };
  });
  publishAfterCommit(deps, { type: 'repayments-changed' });
  return result;
}
