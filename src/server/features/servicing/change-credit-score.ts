import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { lockRunningLoan } from '../../loans/lock-running-loan';

export async function changeCreditScore(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  input: { creditScore: number; reason: string },
) {
  return deps.db.transaction().execute(async (trx) => {
    const before = await lockRunningLoan(trx, id);
    const after = await trx
      .updateTable('applications')
      .set({ credit_score: input.creditScore })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, ctx.actor, {
      action: 'loan.change_credit_score',
      targetType: 'loan',
      targetId: id,
      loanId: id,
      before: { creditScore: before.credit_score },
      after: { creditScore: after.credit_score },
      reason: input.reason,
    });
    await notifyBorrower(trx, {
      borrowerId: after.borrower_id,
      applicationId: id,
      kind: 'credit_score_changed',
      data: { creditScore: after.credit_score },
    });
    return after;
  });
}
