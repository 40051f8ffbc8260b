import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { termsChangeMachine } from '../../../domain/status-machines';
import { notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { lockApplication } from '../../loans/lock-application';
import { proposedChangeOf } from '../../loans/terms-changes';

/**
 * Staff take back a change still waiting for the borrower (docs/decisions/018). The application row is
 * locked first, as by the borrower's accept and decline, so exactly one of them settles the change.
 */
export async function withdrawTermsChange(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  reason: string | null,
) {
  await deps.db.transaction().execute(async (trx) => {
    const application = await lockApplication(trx, id);
    const change = await proposedChangeOf(trx, id);
    if (!change) throw new AppError('TERMS_CHANGE_NOT_OPEN');
    await trx
      .updateTable('terms_changes')
      .set({
        status: termsChangeMachine.statusAfter('withdraw', change.status),
        decided_at: sql<Date>`now()`,
        decided_by: ctx.staff.id,
      })
      .where('id', '=', change.id)
      .execute();
    await recordAudit(trx, ctx.actor, {
      action: 'terms.withdraw',
      targetType: change.stage === 'pending' ? 'application' : 'loan',
      targetId: id,
      loanId: id,
      before: { awaitingBorrower: true },
      after: { awaitingBorrower: false },
      reason,
    });
    await notifyBorrower(trx, {
      borrowerId: application.borrower_id,
      applicationId: id,
      kind: 'terms_change_withdrawn',
      message: reason,
      data: { amountMinor: change.amount, termMonths: change.term_months },
    });
  });
  publishAfterCommit(deps, { type: 'applications-changed' });
}
