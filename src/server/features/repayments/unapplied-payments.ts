import { sql } from 'kysely';
import { todayIn } from '../../../domain/date-text';
import { AppError } from '../../../domain/errors';
import { matchLoanReference } from '../../../domain/loan/loan-number';
import { recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { today } from '../../lib/clock';
import { cappedTotal, pageWindow, toPage } from '../../lib/paging';
import { recordRepaymentIn } from './record-repayment';
import { suggestLoans } from './suggest-loans';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const resolved = () => new AppError('UNAPPLIED_PAYMENT_RESOLVED');

/**
 * Kept provider payments for finance: open ones first, oldest first; then the resolved ones. Keys and the
 * capped total from the queue index ((status <> 'open'), received_at, id). Each open one comes with the loan
 * it likely belongs to, when something points to one (`suggestLoans`).
 */
export async function listUnappliedPayments(deps: AppDeps, page: number) {
  const keys = deps.db
    .selectFrom('unapplied_payments')
    .select([
      sql<boolean>`(unapplied_payments.status <> 'open')`.as('resolved'),
      'unapplied_payments.received_at as at',
      'unapplied_payments.id',
    ]);
  const order = [
    ['resolved', 'asc'],
    ['at', 'asc'],
    ['id', 'asc'],
  ] as const;
  const rows = await deps.db
    .selectFrom(pageWindow(deps.db, keys, order, page).as('page'))
    .innerJoin('unapplied_payments as u', 'u.id', 'page.id')
    .leftJoin('users', 'users.id', 'u.resolved_by')
    .leftJoin('repayments', 'repayments.id', 'u.applied_repayment_id')
    .leftJoin('applications', 'applications.id', 'repayments.application_id')
    .select([
      'page.window_count',
      'u.id',
      'u.provider',
      'u.provider_reference',
      'u.amount',
      'u.received_at',
      'u.payer_reference',
      'u.payer_name',
      sql<string | null>`u.payload->>'payerPhone'`.as('payer_phone'),
      sql<string | null>`u.payload->>'memo'`.as('memo'),
      'u.reason',
      'u.earlier_amount',
      'u.status',
      'u.resolved_at',
      'u.resolution_note',
      'u.applied_repayment_id',
      'users.username',
      'applications.loan_number',
    ])
    .orderBy('page.resolved')
    .orderBy('page.at')
    .orderBy('page.id')
    .execute();
  const suggestions = await suggestLoans(
    deps,
    rows
      .filter((r) => r.status === 'open')
      .map((r) => ({
        id: r.id,
        amountMinor: Number(r.amount),
        receivedAt: r.received_at,
        payerReference: r.payer_reference,
        memo: r.memo,
        payerPhone: r.payer_phone,
      })),
  );
  const items = rows.map((r) => ({
    id: r.id,
    provider: r.provider,
    providerReference: r.provider_reference,
    amountMinor: Number(r.amount),
    receivedAt: r.received_at.toISOString(),
    payerReference: r.payer_reference,
    payerName: r.payer_name,
    payerPhone: r.payer_phone,
    memo: r.memo,
    reason: r.reason,
    earlierAmountMinor: r.earlier_amount === null ? null : Number(r.earlier_amount),
    status: r.status,
    resolvedAt: r.resolved_at?.toISOString() ?? null,
    resolvedBy: r.username ?? null,
    resolutionNote: r.resolution_note,
    appliedRepaymentId: r.applied_repayment_id,
    appliedLoanNumber: r.loan_number ?? null,
    suggestion: suggestions.get(r.id) ?? null,
  }));
  return toPage(items, await cappedTotal(deps.db, keys, rows[0]?.window_count, page), page);
}

/**
 * Finance applies a kept payment to a loan (by id, or by loan number written any way: `HL26000002`). It becomes a repayment through the same
 * use case (channel and reference are the provider's, so a redelivery still finds one payment), and the kept
 * record turns 'applied' in the same transaction. The kept row is locked first: of two finance users applying
 * it at once, the second finds it resolved.
 */
export async function applyUnappliedPayment(deps: AppDeps, ctx: StaffContext, id: string, loanRef: string) {
  const result = await deps.db.transaction().execute(async (trx) => {
    const kept = await trx
      .selectFrom('unapplied_payments')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!kept) throw new AppError('NOT_FOUND');
    if (kept.status !== 'open') throw resolved();
    // A loan id, or a loan number written any way the webhook reads one (docs/decisions/038).
    const wanted = loanRef.trim();
    const named = matchLoanReference(wanted);
    const number = named.kind === 'one' ? named.loanNumber : null;
    const loan =
      UUID.test(wanted) || number
        ? await trx
            .selectFrom('applications')
            .select(['id', 'loan_number'])
            .where((eb) =>
              UUID.test(wanted)
                ? eb('id', '=', wanted.toLowerCase())
                : eb('loan_number', '=', number as string),
            )
            .executeTakeFirst()
        : undefined;
    if (!loan) throw new AppError('LOAN_NOT_FOUND', { fields: { loan: 'LOAN_NOT_FOUND' } });

    const repayment = await recordRepaymentIn(
      trx,
      deps,
      { actor: ctx.actor, userId: ctx.staff.id, source: 'webhook' },
      loan.id,
      {
        amount: Number(kept.amount),
        // A provider clock a little ahead never dates a payment after our today (as the webhook does).
        receivedOn: [todayIn(deps.config.timeZone, kept.received_at), today(deps)].sort()[0]!,
        channel: kept.provider,
        // A second amount under a reference already received is a payment of its own (finance has checked
        // it with the provider): its repayment is told apart from the first by the kept record's id.
        reference:
          kept.reason === 'reference_conflict'
            ? `${kept.provider_reference}#${kept.id}`
            : kept.provider_reference,
      },
    );
    const updated = await trx
      .updateTable('unapplied_payments')
      .set({
        status: 'applied',
        resolved_by: ctx.staff.id,
        resolved_at: new Date(),
        applied_repayment_id: repayment.id,
      })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw resolved();
    await recordAudit(trx, ctx.actor, {
      action: 'payment.apply',
      targetType: 'unapplied_payment',
      targetId: id,
      loanId: loan.id,
      before: { status: 'open' },
      after: { status: 'applied', repaymentId: repayment.id },
    });
    return {
      id,
      status: 'applied' as const,
      repaymentId: repayment.id,
      loanStatus: repayment.loanStatus,
      loanNumber: loan.loan_number,
    };
  });
  publishAfterCommit(deps, { type: 'repayments-changed' });
  return result;
}

/** The money was sent back to the payer: recorded with the reason, and the kept payment is closed. */
export async function returnUnappliedPayment(deps: AppDeps, ctx: StaffContext, id: string, reason: string) {
  const result = await deps.db.transaction().execute(async (trx) => {
    const kept = await trx
      .selectFrom('unapplied_payments')
      .select(['id', 'status'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!kept) throw new AppError('NOT_FOUND');
    if (kept.status !== 'open') throw resolved();
    const updated = await trx
      .updateTable('unapplied_payments')
      .set({
        status: 'returned',
        resolved_by: ctx.staff.id,
        resolved_at: new Date(),
        resolution_note: reason,
      })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw resolved();
    await recordAudit(trx, ctx.actor, {
      action: 'payment.return',
      targetType: 'unapplied_payment',
      targetId: id,
      before: { status: 'open' },
      after: { status: 'returned' },
      reason,
    });
    return { id, status: 'returned' as const, repaymentId: null, loanStatus: null, loanNumber: null };
  });
  publishAfterCommit(deps, { type: 'repayments-changed' });
  return result;
}
