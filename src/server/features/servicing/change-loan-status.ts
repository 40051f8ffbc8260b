import { AppError } from '../../../domain/errors';
import { canApply, statusAfter } from '../../../domain/loan/status';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { changeRunningLoan } from './change-running-loan';

/** Puts a loan on hold (withdrawals pause, the borrower sees the message) or releases the hold. */
export function changeLoanStatus(
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
  return changeRunningLoan(deps, ctx, id, input.reason, async (trx, before) => {
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
    return {
      loan: after,
      action: input.action === 'hold' ? 'loan.hold' : 'loan.release',
      before: { status: before.status, statusMessage: before.status_message },
      after: { status: after.status, statusMessage: after.status_message },
      notice: {
        kind: input.action === 'hold' ? 'on_hold' : 'released',
        message: input.action === 'hold' ? input.message : null,
      },
    };
  });
}
