import { AppError } from '../../../domain/errors';
import { canApply, statusAfter } from '../../../domain/loan/status';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { lockRunningLoan } from '../../loans/lock-running-loan';

/** Puts a loan on hold (withdrawals pause, the borrower sees the message) or releases the hold. */
export async function changeLoanStatus(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { action: 'hold' | 'release'; message: string; reason: string },
) {
  if (input.action === 'hold' && !input.message) {
    throw new AppError('FIELD_REQUIRED', {
      fields: { message: { code: 'FIELD_REQUIRED', params: { fieldKey: 'message' } } },
      params: { fieldKey: 'message' },
    });
  }
  return deps.db.transaction().execute(async (trx) => {
    const before = await lockRunningLoan(trx, id);
    if (!canApply(input.action, before.status)) {
      // Holding a held loan or releasing a running one changes nothing; the table refuses the rest.
      const unchanged = before.status === (input.action === 'hold' ? 'on_hold' : 'approved');
      throw new AppError(unchanged ? 'STATUS_UNCHANGED' : 'STATUS_CHANGE_REFUSED');
    }
    const to = statusAfter(input.action, before.status);
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
