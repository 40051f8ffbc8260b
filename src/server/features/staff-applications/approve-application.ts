import { sql } from 'kysely';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { type DecisionContext, decidePendingApplication, nowSql } from './decide-application';

/** Approves in one transaction (one conditional update decides; see decidePendingApplication): status, approved amount, score, decider, audit event, borrower notice. */
export async function approveApplication(
  deps: AppDeps,
  ctx: DecisionContext,
  id: string,
  creditScore: number,
) {
  const updated = await deps.db.transaction().execute(async (trx) => {
    const after = await decidePendingApplication(trx, ctx.staff, id, 'approved', {
      status: 'approved',
      approved_amount: sql<number>`applications.amount`,
      credit_score: creditScore,
      decided_at: nowSql,
      decided_by: ctx.staff.id,
      status_message: null,
    });
    await recordAudit(trx, ctx.actor, {
      action: 'application.approve',
      targetType: 'application',
      targetId: id,
      loanId: id,
      before: {
        status: after.before_status,
        approvedAmount: after.before_approved_amount,
        creditScore: after.before_credit_score,
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
