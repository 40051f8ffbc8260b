import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { type DecisionContext, lockPendingApplication, nowSql } from './decide-application';

/** Approves in one transaction: status, approved amount, score, decider, audit event, borrower notice. */
export async function approveApplication(
  deps: AppDeps,
  ctx: DecisionContext,
  id: string,
  creditScore: number,
) {
  const updated = await deps.db.transaction().execute(async (trx) => {
    const before = await lockPendingApplication(trx, ctx.staff, id, 'approved');
    const after = await trx
      .updateTable('applications')
      .set({
        status: 'approved',
        approved_amount: before.amount,
        credit_score: creditScore,
        decided_at: nowSql,
        decided_by: ctx.staff.id,
        status_message: null,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, ctx.actor, {
      action: 'application.approve',
      targetType: 'application',
      targetId: id,
      loanId: id,
      before: {
        status: before.status,
        approvedAmount: before.approved_amount,
        creditScore: before.credit_score,
      },
      after: { status: after.status, approvedAmount: after.approved_amount, creditScore: after.credit_score },
    });
    await notifyBorrower(trx, {
      borrowerId: after.borrower_id,
      applicationId: id,
      kind: 'approved',
      data: { approvedAmountMinor: after.approved_amount, creditScore },
    });
    return after;
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
  return updated;
}
