import { type SqlBool, sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import type { ApplicationRow } from '../../lib/applications';
import { assertNoProposedChange, termsChangePendingSql } from '../../loans/terms-changes';
import { queueBorrowerMessage } from '../../notify/sms-outbox';
import { fourEyesThresholdSql, governingProductVersion } from '../../products/product-versions';
import {
  type DecisionContext,
  decideIfStill,
  decideInTurn,
  lockPendingApplication,
  nowSql,
} from './decide-application';

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
  const outcome = await decideInTurn(deps, id, 'approved', () =>
    deps.db.transaction().execute(async (trx) => {
      if (await approveAtOnce(trx, deps, ctx, id, creditScore)) return 'approved' as const;
      // Not approved at once: lock the row and say why, or record a first approval above the threshold.
      const before = await lockPendingApplication(trx, ctx.staff, id, 'approved');
      await assertNoProposedChange(trx, id);
      if (before.first_approved_by) throw new AppError('AWAITING_SECOND_APPROVAL');
      // The loan's own product version's threshold (docs/decisions/034).
      if (before.amount > (await governingProductVersion(trx, before)).fourEyesThresholdMinor) {
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
      await approve(trx, deps, ctx, before, creditScore, 'application.approve');
      return 'approved' as const;
    }),
  );
  publishAfterCommit(deps, { type: 'applications-changed' });
  return { outcome };
}

/**
 * The second pair of eyes: a different officer or admin confirms a first approval, with the score the
 * first approver entered. The row lock makes concurrent confirmations queue: one wins, the rest find the
 * application decided.
 */
export async function confirmApproval(deps: AppDeps, ctx: DecisionContext, id: string) {
  await decideInTurn(deps, id, 'approved', () =>
    deps.db.transaction().execute(async (trx) => {
      const before = await lockPendingApplication(trx, ctx.staff, id, 'approved');
      if (!before.first_approved_by) throw new AppError('NOT_AWAITING_SECOND_APPROVAL');
      if (before.first_approved_by === ctx.staff.id) throw new AppError('OWN_APPROVAL_CONFIRM');
      await assertNoProposedChange(trx, id);
      await approve(
        trx,
        deps,
        ctx,
        before,
        before.first_approval_credit_score ?? 500,
        'application.confirm_approval',
      );
    }),
  );
  publishAfterCommit(deps, { type: 'applications-changed' });
}

/**
 * The common case in ONE conditional statement (issue #12): a pending application at or below its product
 * version's four-eyes threshold, with no first approval and no change waiting for the borrower, not made with the staff member's
 * own phone. Concurrent decisions queue on the row inside PostgreSQL and every later one finds it changed,
 * without a round trip to the app while the lock is held. Returns false when the row did not qualify; the
 * caller then locks it and finds out why (already decided, four-eyes, a proposed change…).
 */
async function approveAtOnce(
  trx: Transaction<Database>,
  deps: AppDeps,
  ctx: DecisionContext,
  id: string,
  creditScore: number,
): Promise<boolean> {
  const after = await decideIfStill(
    trx,
    ctx.staff,
    id,
    'approved',
    {
      status: 'approved',
      approved_amount: sql<number>`applications.amount`,
      credit_score: creditScore,
      decided_at: nowSql,
      decided_by: ctx.staff.id,
      status_message: null,
    },
    [
      sql<SqlBool>`applications.first_approved_by is null`,
      sql<SqlBool>`applications.amount <= ${fourEyesThresholdSql()}`,
      sql<SqlBool>`not ${termsChangePendingSql(sql.ref('applications.id'))}`,
    ],
  );
  if (!after) return false;
  await recordApproval(
    trx,
    deps,
    ctx,
    {
      status: after.before_status,
      approved_amount: after.before_approved_amount,
      credit_score: after.before_credit_score,
    },
    after,
    creditScore,
    'application.approve',
  );
  return true;
}

async function approve(
  trx: Transaction<Database>,
  deps: AppDeps,
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
  await recordApproval(trx, deps, ctx, before, after, creditScore, action);
}

async function recordApproval(
  trx: Transaction<Database>,
  deps: AppDeps,
  ctx: DecisionContext,
  before: Pick<ApplicationRow, 'status' | 'approved_amount' | 'credit_score'>,
  after: ApplicationRow,
  creditScore: number,
  action: 'application.approve' | 'application.confirm_approval',
) {
  await recordAudit(trx, ctx.actor, {
    action,
    targetType: 'application',
    targetId: after.id,
    loanId: after.id,
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
    applicationId: after.id,
    kind: 'approved',
    data: { approvedAmountMinor: after.approved_amount, creditScore },
  });
  // The SMS commits with the approval, or not at all (docs/decisions/041).
  await queueBorrowerMessage(
    trx,
    deps,
    { borrowerId: after.borrower_id, applicationId: after.id },
    {
      kind: 'application_approved',
      loanNumber: after.loan_number,
      amountMinor: after.approved_amount ?? after.amount,
    },
  );
}
