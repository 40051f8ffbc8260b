import type { Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import type { ApplicationRow } from '../../lib/applications';
import { assertNoProposedChange } from '../../loans/terms-changes';
import { type DecisionContext, lockPendingApplication, nowSql } from './decide-application';

/**
 * Approves in one transaction: status, approved amount, score, decider, audit event, borrower notice.
 * Nothing is approved while a change to the terms waits for the borrower (docs/decisions/018). Above the
 * four-eyes threshold the first approval is only recorded (who, when, score) and the application stays
 * pending until a different staff member confirms it (`confirmApproval`).
 */
export async function approveApplication(
  deps: AppDeps,
  ctx: DecisionContext,
  id: string,
  creditScore: number,
): Promise<{ outcome: 'approved' | 'awaiting_second_approval' }> {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const before = await lockPendingApplication(trx, ctx.staff, id, 'approved');
    await assertNoProposedChange(trx, id);
    if (before.first_approved_by) throw new AppError('AWAITING_SECOND_APPROVAL');
    if (before.amount > deps.config.fourEyesThresholdMinor) {
      await trx
        .updateTable('applications')
        .set({
          first_approved_by: ctx.staff.id,
          first_approved_at: nowSql,
          first_approval_credit_score: creditScore,
        })
        .where('id', '=', id)
        .execute();
      await recordAudit(trx, ctx.actor, {
        action: 'application.first_approve',
        targetType: 'application',
        targetId: id,
        loanId: id,
        before: { awaitingSecondApproval: false },
        after: { awaitingSecondApproval: true, creditScore },
      });
      return 'awaiting_second_approval' as const;
    }
    await approve(trx, ctx, before, creditScore, 'application.approve');
    return 'approved' as const;
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
  return { outcome };
}

/**
 * The second pair of eyes: a different officer or admin confirms a first approval, with the score the
 * first approver entered. The row lock makes concurrent confirmations queue: one wins, the rest find the
 * application decided.
 */
export async function confirmApproval(deps: AppDeps, ctx: DecisionContext, id: string) {
  await deps.db.transaction().execute(async (trx) => {
    const before = await lockPendingApplication(trx, ctx.staff, id, 'approved');
    if (!before.first_approved_by) throw new AppError('NOT_AWAITING_SECOND_APPROVAL');
    if (before.first_approved_by === ctx.staff.id) throw new AppError('OWN_APPROVAL_CONFIRM');
    await assertNoProposedChange(trx, id);
    await approve(
      trx,
      ctx,
      before,
      before.first_approval_credit_score ?? 500,
      'application.confirm_approval',
    );
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
}

async function approve(
  trx: Transaction<Database>,
  ctx: DecisionContext,
  before: ApplicationRow,
  creditScore: number,
  action: 'application.approve' | 'application.confirm_approval',
) {
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
    .where('id', '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(trx, ctx.actor, {
    action,
    targetType: 'application',
    targetId: before.id,
    loanId: before.id,
    before: {
      status: before.status,
      approvedAmount: before.approved_amount,
      creditScore: before.credit_score,
      ...(action === 'application.confirm_approval' ? { awaitingSecondApproval: true } : {}),
    },
    after: {
      status: after.status,
      approvedAmount: after.approved_amount,
      creditScore: after.credit_score,
      ...(action === 'application.confirm_approval' ? { awaitingSecondApproval: false } : {}),
    },
  });
  await notifyBorrower(trx, {
    borrowerId: after.borrower_id,
    applicationId: before.id,
    kind: 'approved',
    data: { approvedAmountMinor: after.approved_amount, creditScore },
  });
}
