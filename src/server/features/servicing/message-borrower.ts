import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { lockRunningLoan } from '../../loans/lock-running-loan';

export async function messageBorrower(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { message: string; reason: string },
) {
  return deps.db.transaction().execute(async (trx) => {
    const loan = await lockRunningLoan(trx, id);
    await recordAudit(trx, ctx.actor, {
      action: 'loan.message_borrower',
      targetType: 'loan',
      targetId: id,
      loanId: id,
      after: { message: input.message },
      reason: input.reason,
    });
    await notifyBorrower(trx, {
      borrowerId: loan.borrower_id,
      applicationId: id,
      kind: 'message',
      message: input.message,
    });
    return loan;
  });
}
