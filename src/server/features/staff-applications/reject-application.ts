import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { queueBorrowerMessage } from '../../notify/sms-outbox';
import { type DecisionContext, decideInTurn, decidePendingApplication, nowSql } from './decide-application';

/** Rejects with a reason; the record is kept as Rejected and the borrower sees the reason. */
export async function rejectApplication(deps: AppDeps, ctx: DecisionContext, id: string, reason: string) {
  const updated = await decideInTurn(deps, id, 'rejected', () =>
    deps.db.transaction().execute(async (trx) => {
      const after = await decidePendingApplication(trx, ctx.staff, id, 'rejected', {
        status: 'rejected',
        reject_reason: reason,
        decided_at: nowSql,
        decided_by: ctx.staff.id,
      });
      await recordAudit(trx, ctx.actor, {
        action: 'application.reject',
        targetType: 'application',
        targetId: id,
        loanId: id,
        before: { status: after.before_status },
        after: { status: after.status },
        reason,
      });
      await notifyBorrower(trx, {
        borrowerId: after.borrower_id,
        applicationId: id,
        kind: 'rejected',
        message: reason,
      });
      await queueBorrowerMessage(
        trx,
        deps,
        { borrowerId: after.borrower_id, applicationId: id },
        { kind: 'application_declined', loanNumber: after.loan_number, reason },
      );
      return after;
    }),
  );
  publishAfterCommit(deps, { type: 'applications-changed' });
  return updated;
}
