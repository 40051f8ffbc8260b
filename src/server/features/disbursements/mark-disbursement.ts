import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { disbursementMachine } from '../../../domain/status-machines';
import { type AuditActor, notifyBorrower, recordAudit } from '../../audit/audit';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { lastDueDate } from '../../loans/loan-position';
import { lockApplication } from '../../loans/lock-application';
import { refreshLoanFacts } from '../../loans/refresh-loan-facts';
import { queueBorrowerMessage } from '../../notify/sms-outbox';

export type PayoutOutcome = { status: 'paid'; reference: string } | { status: 'failed'; reason: string };

/**
 * Finance records what happened to a payout: paid (with the transfer reference) or failed (with a reason;
 * the amount is available again because balances count only requested and paid records). Exactly one
 * decision wins; the record itself is never deleted.
 */
export async function markDisbursement(
  deps: AppDeps,
  ctx: { staff: User; actor: AuditActor },
  id: string,
  outcome: PayoutOutcome,
) {
  const updated = await deps.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('disbursements')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new AppError('NOT_FOUND');
    const event = outcome.status === 'paid' ? 'mark_paid' : 'mark_failed';
    const status = disbursementMachine.statusAfter(event, before.status);
    if (outcome.status === 'paid') {
      // A payout on or after the loan's last due date could not be repaid by any instalment. The loan row is
      // locked (like every money event of the loan) so its stored facts are refreshed in order.
      const loan = await lockApplication(trx, before.application_id);
      const lastDue = await lastDueDate(trx, loan, deps.config.timeZone);
      if (lastDue !== null && today(deps) >= lastDue) {
        throw new AppError('PAYOUT_AFTER_LAST_DUE', { params: { date: lastDue } });
      }
    }
    const after = await trx
      .updateTable('disbursements')
      .set({
        status,
        decided_at: sql`now()`,
        decided_by: ctx.staff.id,
        ...(outcome.status === 'paid'
          ? { reference: outcome.reference }
          : { failure_reason: outcome.reason }),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const loan = await trx
      .selectFrom('applications')
      .select(['id', 'borrower_id', 'term_months', 'terms', 'loan_number'])
      .where('id', '=', before.application_id)
      .executeTakeFirstOrThrow();
    // A paid payout starts or re-amortises the schedule: the loan book's stored facts follow it.
    if (outcome.status === 'paid') await refreshLoanFacts(trx, deps, loan);
    await recordAudit(trx, ctx.actor, {
      action: outcome.status === 'paid' ? 'disbursement.mark_paid' : 'disbursement.mark_failed',
      targetType: 'disbursement',
      targetId: id,
      loanId: loan.id,
      before: { status: before.status, reference: before.reference },
      after: { status: after.status, reference: after.reference },
      reason: outcome.status === 'failed' ? outcome.reason : null,
    });
    await notifyBorrower(trx, {
      borrowerId: loan.borrower_id,
      applicationId: loan.id,
      kind: outcome.status === 'paid' ? 'disbursement_paid' : 'disbursement_failed',
      message: outcome.status === 'failed' ? outcome.reason : null,
      data: {
        amountMinor: after.amount,
        ...(outcome.status === 'paid' ? { reference: outcome.reference } : {}),
      },
    });
    // What reaches the account: the payout less its fee (docs/decisions/036).
    const sentMinor = after.amount - after.fee_minor;
    await queueBorrowerMessage(
      trx,
      deps,
      { borrowerId: loan.borrower_id, applicationId: loan.id },
      outcome.status === 'paid'
        ? {
            kind: 'payout_paid',
            loanNumber: loan.loan_number,
            sentMinor,
            accountLast4: after.account_number.replace(/\D/g, '').slice(-4),
          }
        : {
            kind: 'payout_failed',
            loanNumber: loan.loan_number,
            amountMinor: sentMinor,
            reason: outcome.reason,
          },
    );
    return after;
  });
  publishAfterCommit(deps, { type: 'disbursements-changed' });
  return updated;
}
