import { sql, type Transaction } from 'kysely';
import { todayIn } from '../../../domain/date-text';
import { AppError, type ErrorCode } from '../../../domain/errors';
import { matchLoanReference } from '../../../domain/loan/loan-number';
import type {
  PaymentWebhookOutcome,
  PaymentWebhookPayload,
  UnappliedReason,
} from '../../../domain/schemas/payments';
import { type AuditActor, recordAudit, systemActor } from '../../audit/audit';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { recordRepaymentIn } from './record-repayment';
import { WEBHOOK_FUTURE_SKEW_SECONDS } from './webhook-signature';

/** The integration's name in the audit trail (role 'system'). */
export const WEBHOOK_ACTOR = 'payments-webhook';

/** The repayment refusals that mean "keep the money for finance", and how the record names them. */
const keptBecause: Partial<Record<ErrorCode, UnappliedReason>> = {
  NOT_FOUND: 'unknown_reference',
  LOAN_NOT_REPAYING: 'loan_not_running',
  REPAYMENT_DATE_BEFORE_PAYOUT: 'before_payout',
};

/**
 * A payment the provider reported (signature already checked). Idempotent by the provider's reference: a
 * redelivery finds what the first delivery made and answers the same. A payment quoting a running loan's
 * number becomes a repayment through the same use case finance uses (closing the loan when it clears it);
 * anything else is kept as an unapplied payment for finance, never dropped. A delivery quoting a provider
 * reference already received with another amount is kept too, as a conflict finance sees with both amounts.
 * The loan number is read the way people write it (`matchLoanReference`: case, spaces, dashes, a missing
 * prefix, inside a memo); only the provider's own reference is compared as sent, since it is the key of
 * idempotency. A phone or an amount never applies a payment: they only suggest a loan to finance.
 */
export async function receiveProviderPayment(
  deps: AppDeps,
  channel: string,
  payload: PaymentWebhookPayload,
  /** The body as received (JSON text), kept with an unapplied payment: every field the provider sent. */
  rawJson: string,
  ip: string | null,
): Promise<PaymentWebhookOutcome> {
  const now = deps.clock.now();
  const receivedAt = new Date(payload.receivedAt);
  if (receivedAt.getTime() > now.getTime() + WEBHOOK_FUTURE_SKEW_SECONDS * 1000) {
    throw new AppError('VALIDATION_FAILED', { fields: { receivedAt: 'REPAYMENT_DATE_IN_FUTURE' } });
  }
  // The provider's clock may be a little ahead: a payment is never dated after our today.
  const receivedOn = [todayIn(deps.config.timeZone, receivedAt), today(deps)].sort()[0]!;
  const actor = systemActor(WEBHOOK_ACTOR, ip);
  const reference = payload.reference;

  const outcome = await deps.db.transaction().execute(async (trx): Promise<PaymentWebhookOutcome> => {
    // Deliveries of one provider payment queue here, so a redelivery racing the first finds its result.
    await sql`select pg_advisory_xact_lock(hashtext(${`payment-webhook:${channel}:${reference}`}))`.execute(
      trx,
    );
    const kept = await trx
      .selectFrom('unapplied_payments')
      .select(['id', 'reason', 'amount'])
      .where('provider', '=', channel)
      .where('provider_reference', '=', reference)
      .where('reason', '<>', 'reference_conflict')
      .executeTakeFirst();
    const recorded = kept
      ? undefined
      : await trx
          .selectFrom('repayments')
          .innerJoin('applications', 'applications.id', 'repayments.application_id')
          .select(['repayments.id', 'repayments.amount', 'applications.status'])
          .where('repayments.channel', '=', channel)
          .where('repayments.reference', '=', reference)
          .executeTakeFirst();
    const earlier = kept ?? recorded;
    if (earlier && Number(earlier.amount) === payload.amountMinor) {
      // A redelivery: the first outcome, nothing new.
      return kept
        ? { outcome: 'unapplied', id: kept.id, reason: kept.reason, loanStatus: null }
        : { outcome: 'applied', id: recorded!.id, reason: null, loanStatus: recorded!.status };
    }
    if (earlier) {
      // The same provider reference with another amount: not the first payment again, and not to be
      // applied blindly either. Kept for finance with both amounts (issue #33).
      return keepConflict(trx, {
        channel,
        payload,
        receivedAt,
        rawJson,
        actor,
        earlierAmount: Number(earlier.amount),
      });
    }

    // The loan the payer named, however they wrote it, in the reference or the memo; two loans named is
    // no match (docs/decisions/038).
    const named = matchLoanReference(payload.paymentReference, payload.memo);
    const loan =
      named.kind === 'one'
        ? await trx
            .selectFrom('applications')
            .select('id')
            .where('loan_number', '=', named.loanNumber)
            .executeTakeFirst()
        : undefined;
    let reason: UnappliedReason = named.kind === 'ambiguous' ? 'ambiguous_reference' : 'unknown_reference';
    if (loan) {
      try {
        const result = await recordRepaymentIn(
          trx,
          deps,
          { actor, userId: null, source: 'webhook' },
          loan.id,
          { amount: payload.amountMinor, receivedOn, channel, reference },
        );
        return { outcome: 'applied', id: result.id, reason: null, loanStatus: result.loanStatus };
      } catch (error) {
        const why = error instanceof AppError ? keptBecause[error.code] : undefined;
        if (!why) throw error;
        reason = why;
      }
    }
    const row = await trx
      .insertInto('unapplied_payments')
      .values({
        provider: channel,
        provider_reference: reference,
        amount: payload.amountMinor,
        received_at: receivedAt,
        payer_reference: payload.paymentReference,
        payer_name: payload.payerName ?? null,
        payload: rawJson,
        reason,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'payment.receive',
      targetType: 'unapplied_payment',
      targetId: row.id,
      loanId: loan?.id ?? null,
      after: {
        amountMinor: payload.amountMinor,
        receivedAt: receivedAt.toISOString(),
        reference,
        payerReference: payload.paymentReference,
        reason,
      },
    });
    return { outcome: 'unapplied', id: row.id, reason, loanStatus: null };
  });
  publishAfterCommit(deps, { type: 'repayments-changed' });
  return outcome;
}

/** A delivery whose provider reference was received before with another amount: one record per amount. */
async function keepConflict(
  trx: Transaction<Database>,
  delivery: {
    channel: string;
    payload: PaymentWebhookPayload;
    receivedAt: Date;
    rawJson: string;
    actor: AuditActor;
    earlierAmount: number;
  },
): Promise<PaymentWebhookOutcome> {
  const { channel, payload } = delivery;
  const reason = 'reference_conflict' as const;
  const again = await trx
    .selectFrom('unapplied_payments')
    .select('id')
    .where('provider', '=', channel)
    .where('provider_reference', '=', payload.reference)
    .where('amount', '=', payload.amountMinor)
    .where('reason', '=', reason)
    .executeTakeFirst();
  if (again) return { outcome: 'unapplied', id: again.id, reason, loanStatus: null };
  const row = await trx
    .insertInto('unapplied_payments')
    .values({
      provider: channel,
      provider_reference: payload.reference,
      amount: payload.amountMinor,
      received_at: delivery.receivedAt,
      payer_reference: payload.paymentReference,
      payer_name: payload.payerName ?? null,
      payload: delivery.rawJson,
      reason,
      earlier_amount: delivery.earlierAmount,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordAudit(trx, delivery.actor, {
    action: 'payment.receive',
    targetType: 'unapplied_payment',
    targetId: row.id,
    after: {
      amountMinor: payload.amountMinor,
      earlierAmountMinor: delivery.earlierAmount,
      receivedAt: delivery.receivedAt.toISOString(),
      reference: payload.reference,
      payerReference: payload.paymentReference,
      reason,
    },
  });
  return { outcome: 'unapplied', id: row.id, reason, loanStatus: null };
}
