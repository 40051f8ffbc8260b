import { AppError } from '../../../domain/errors';
import { canTransition, type LoanStatus } from '../../../domain/loan/status';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { AppDeps } from '../../deps';
import { lockRunningLoan } from '../../loans/lock-running-loan';
import type { StaffContext } from '../../loans/staff-context';

/** Puts a loan on hold (withdrawals pause, the borrower sees the message) or releases the hold. */
export async function changeLoanStatus(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { action: 'hold' | 'release'; message: string; reason: string },
) {
  if (input.action === 'hold' && !input.message) {
    throw new AppError('FIELD_REQUIRED', {
      fields: { message: { code: 'FIELD_REQUIRED', params: { field: 'Message' } } },
      params: { field: 'Message' },
    });
  }
  return deps.db.transaction().execute(async (trx) => {
    const before = await lockRunningLoan(trx, id);
    const to: LoanStatus = input.action === 'hold' ? 'on_hold' : 'approved';
    if (!canTransition(before.status, to)) {
      throw new AppError(before.status === to ? 'STATUS_UNCHANGED' : 'LOAN_NOT_FOUND');
    }
    const after = await trx
      .updateTable('applications')
      .set({ status: to, status_message: input.action === 'hold' ? input.message : null })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, ctx.actor, {
      action: input.action === 'hold' ? 'loan.hold' : 'loan.release',
      targetType: 'loan',
      targetId: id,
      loanId: id,
      before: { status: before.status, statusMessage: before.status_message },
      after: { status: after.status, statusMessage: after.status_message },
      reason: input.reason,
    });
    await notifyBorrower(trx, {
      borrowerId: after.borrower_id,
      applicationId: id,
      kind: input.action === 'hold' ? 'on_hold' : 'released',
      message: input.action === 'hold' ? input.message : null,
    });
    return after;
  });
}
