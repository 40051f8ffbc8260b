import type { Transaction } from 'kysely';
import type { AuditAction } from '../../../domain/audit-fields';
import type { BorrowerEventKind } from '../../../domain/borrower-events';
import { type AuditFields, notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { lockRunningLoan } from '../../loans/lock-running-loan';

type RunningLoan = Awaited<ReturnType<typeof lockRunningLoan>>;

/** What a servicing action did: the loan after it, its audit action and fields, what the borrower is told. */
interface ServicingChange {
  loan: RunningLoan;
  action: AuditAction;
  before?: AuditFields;
  after?: AuditFields;
  notice: { kind: BorrowerEventKind; message?: string | null; data?: object };
}

/**
 * A servicing action on a running loan: the loan is locked (`lockRunningLoan`), `change` writes and says what
 * it did, and in the same transaction the change is audited with the staff member's reason and shown to the
 * borrower. Answers the loan after the change.
 */
export function changeRunningLoan(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  reason: string,
  change: (trx: Transaction<Database>, loan: RunningLoan) => Promise<ServicingChange>,
) {
  return deps.db.transaction().execute(async (trx) => {
    const done = await change(trx, await lockRunningLoan(trx, id));
    await recordAudit(trx, ctx.actor, {
      action: done.action,
      targetType: 'loan',
      targetId: id,
      loanId: id,
      before: done.before,
      after: done.after,
      reason,
    });
    await notifyBorrower(trx, { borrowerId: done.loan.borrower_id, applicationId: id, ...done.notice });
    return done.loan;
  });
}
