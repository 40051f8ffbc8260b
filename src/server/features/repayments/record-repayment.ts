import type { Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { deriveLoanPosition, isNothingOwed } from '../../../domain/loan/repayments';
import { isRunning, statusAfter } from '../../../domain/loan/status';
import type { RecordRepaymentInput } from '../../../domain/schemas/repayments';
import { type AuditActor, notifyBorrower, recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { Database, RepaymentSource } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/db-errors';
import { loadLoanRecords } from '../../loans/loan-position';
import { lockApplication } from '../../loans/lock-application';
import { refreshLoanFacts } from '../../loans/refresh-loan-facts';
import { queueBorrowerMessage } from '../../notify/sms-outbox';

const referenceUsed = () =>
  new AppError('REPAYMENT_REFERENCE_USED', { fields: { reference: 'REPAYMENT_REFERENCE_USED' } });

/** Who a repayment is recorded by: the audit actor, the user (null for the system) and how money arrived. */
export interface RepaymentRecorder {
  actor: AuditActor;
  userId: string | null;
  source: RepaymentSource;
}

export const staffRecorder = (ctx: StaffContext): RepaymentRecorder => ({
  actor: ctx.actor,
  userId: ctx.staff.id,
  source: 'staff',
});

/**
 * Finance records money received for a running, paid-out loan. The loan row is locked, so repayments of one
 * loan queue and each sees the ones before it; the unique (channel, reference) makes the same payment entered
 * twice — at once or later, on any loan — one record. More than the payoff is recorded too: the rest is held
 * as the borrower's credit until finance refunds it. When nothing is owed afterwards the loan closes in the
 * same transaction.
 */
export async function recordRepayment(
  deps: AppDeps,
  ctx: StaffContext,
  loanId: string,
  input: RecordRepaymentInput,
) {
  const result = await deps.db
    .transaction()
    .execute((trx) => recordRepaymentIn(trx, deps, staffRecorder(ctx), loanId, input));
  publishAfterCommit(deps, { type: 'repayments-changed' });
  return result;
}

/**
 * The one way a repayment is recorded — by finance, by the provider's webhook, or by finance applying a kept
 * payment — inside the caller's transaction. Refusals are AppErrors thrown before anything is written (so a
 * caller may catch one and carry on in the same transaction: the webhook keeps the payment unapplied), except
 * a reference taken by a concurrent transaction, which aborts it. The caller publishes 'repayments-changed'
 * after commit.
 */
export async function recordRepaymentIn(
  trx: Transaction<Database>,
  deps: AppDeps,
  by: RepaymentRecorder,
  loanId: string,
  input: RecordRepaymentInput,
) {
  if (!deps.config.paymentChannels.some((c) => c.code === input.channel)) {
    throw new AppError('PAYMENT_CHANNEL_INVALID', { fields: { channel: 'PAYMENT_CHANNEL_INVALID' } });
  }
  const asOf = today(deps);
  if (input.receivedOn > asOf) {
    throw new AppError('REPAYMENT_DATE_IN_FUTURE', { fields: { receivedOn: 'REPAYMENT_DATE_IN_FUTURE' } });
  }
  const loan = await lockApplication(trx, loanId);
  if (!isRunning(loan.status)) throw new AppError('LOAN_NOT_REPAYING');
  const used = await trx
    .selectFrom('repayments')
    .select('id')
    .where('channel', '=', input.channel)
    .where('reference', '=', input.reference)
    .executeTakeFirst();
  if (used) throw referenceUsed();

  const { records } = await loadLoanRecords(trx, loan, deps.config.timeZone);
  const firstPayout = records.disbursements[0]?.paidOn ?? null;
  if (firstPayout === null || firstPayout > asOf) throw new AppError('LOAN_NOT_REPAYING');
  if (input.receivedOn < firstPayout) {
    throw new AppError('REPAYMENT_DATE_BEFORE_PAYOUT', {
      fields: { receivedOn: 'REPAYMENT_DATE_BEFORE_PAYOUT' },
      params: { date: firstPayout },
    });
  }

  const before = deriveLoanPosition(records, asOf);
  const candidate = { id: 'new', amountMinor: input.amount, receivedOn: input.receivedOn };
  const after = deriveLoanPosition({ ...records, repayments: [...records.repayments, candidate] }, asOf);
  // Money beyond what the loan owes is recorded, never refused (it has arrived: issue #31): it is held for
  // the borrower as credit, shown to both sides, until finance refunds it.
  const creditMinor = after.overpaidMinor - before.overpaidMinor;

  let repayment: { id: string; created_at: Date };
  try {
    repayment = await trx
      .insertInto('repayments')
      .values({
        application_id: loan.id,
        amount: input.amount,
        received_on: input.receivedOn,
        channel: input.channel,
        reference: input.reference,
        source: by.source,
        recorded_by: by.userId,
      })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
  } catch (error) {
    // The same payment entered at the same moment for another loan: its insert committed first.
    if (isUniqueViolation(error, 'repayments_channel_reference')) throw referenceUsed();
    throw error;
  }
  await recordAudit(trx, by.actor, {
    action: 'repayment.record',
    targetType: 'repayment',
    targetId: repayment.id,
    loanId: loan.id,
    after: {
      amountMinor: input.amount,
      receivedOn: input.receivedOn,
      channel: input.channel,
      reference: input.reference,
      ...(creditMinor > 0 ? { creditMinor } : {}),
    },
  });
  await notifyBorrower(trx, {
    borrowerId: loan.borrower_id,
    applicationId: loan.id,
    kind: 'repayment_received',
    data: {
      amountMinor: input.amount,
      receivedOn: input.receivedOn,
      reference: input.reference,
      ...(creditMinor > 0 ? { creditMinor } : {}),
    },
  });

  const closes = isNothingOwed(after);
  if (closes) {
    await trx
      .updateTable('applications')
      .set({
        status: statusAfter('pay_off', loan.status),
        closed_at: repayment.created_at,
        status_message: null,
      })
      .where('id', '=', loan.id)
      .execute();
    await recordAudit(trx, by.actor, {
      action: 'loan.close',
      targetType: 'loan',
      targetId: loan.id,
      loanId: loan.id,
      before: { status: loan.status },
      after: { status: 'closed' },
      reason: 'Paid in full',
    });
    await notifyBorrower(trx, {
      borrowerId: loan.borrower_id,
      applicationId: loan.id,
      kind: 'loan_closed',
      data: { paidInFullOn: input.receivedOn },
    });
  }
  // One SMS for the payment: what is still owed, or (the payment that closes the loan) paid in full with any
  // money held above the payoff.
  await queueBorrowerMessage(
    trx,
    deps,
    { borrowerId: loan.borrower_id, applicationId: loan.id },
    closes
      ? {
          kind: 'loan_closed',
          loanNumber: loan.loan_number,
          amountMinor: input.amount,
          heldMinor: after.creditMinor,
        }
      : {
          kind: 'payment_received',
          loanNumber: loan.loan_number,
          amountMinor: input.amount,
          owedMinor: after.payoffMinor,
        },
  );
  // The stored facts of the loan book follow its records in the same transaction (docs/decisions/012).
  await refreshLoanFacts(trx, deps, loan);
  return { id: repayment.id, loanStatus: closes ? ('closed' as const) : loan.status, position: after };
}
