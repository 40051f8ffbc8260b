import { AppError } from '../../../domain/errors';
import { receiptNumber } from '../../../domain/payments/receipts';
import type { PaymentReceiptDto, PayoutReceiptDto } from '../../../domain/schemas/paying';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanPosition } from '../../loans/loan-position';

/**
 * Who asks: a borrower sees receipts of their own loans only (any of them, closed ones included); anyone
 * else's is "not found", as if it did not exist. Staff see any (a read, like the ledger: not audited).
 */
export type ReceiptViewer = { borrowerId: string } | { staff: true };

/**
 * A payment's receipt: the money as recorded, where it went as the loan's records stand today (late
 * charges, interest, principal, credit held), or its reversal with the reason and day.
 */
export async function getPaymentReceipt(
  deps: AppDeps,
  repaymentId: string,
  viewer: ReceiptViewer,
): Promise<PaymentReceiptDto> {
  let query = deps.db
    .selectFrom('repayments as r')
    .innerJoin('applications as a', 'a.id', 'r.application_id')
    .select(['a.id', 'a.loan_number', 'a.full_name', 'a.term_months', 'a.terms'])
    .where('r.id', '=', repaymentId);
  if ('borrowerId' in viewer) query = query.where('a.borrower_id', '=', viewer.borrowerId);
  const loan = await query.executeTakeFirst();
  if (!loan) throw new AppError('NOT_FOUND');
  const { position, repayments } = await loanPosition(deps.db, loan, deps, today(deps));
  const repayment = repayments.find((r) => r.id === repaymentId);
  if (!repayment) throw new AppError('NOT_FOUND');
  const applied = position.repayments.find((r) => r.id === repaymentId);
  const channel = deps.config.paymentChannels.find((c) => c.code === repayment.channel);
  return {
    receiptNumber: receiptNumber('payment', loan.loan_number, repayment.id),
    repaymentId: repayment.id,
    loanId: loan.id,
    loanNumber: loan.loan_number,
    borrowerName: loan.full_name,
    amountMinor: repayment.amount,
    receivedOn: repayment.receivedOn,
    channel: repayment.channel,
    channelName: channel?.name ?? repayment.channel,
    reference: repayment.reference,
    recordedAt: repayment.recordedAt.toISOString(),
    allocation: repayment.reversal ? null : (applied?.allocation ?? null),
    reversal: repayment.reversal
      ? { reason: repayment.reversal.reason, reversedAt: repayment.reversal.reversedAt.toISOString() }
      : null,
  };
}

/**
 * A payout's receipt, once it is marked paid (a requested or failed one moved no money: not found): the
 * amount borrowed, the fee taken from it and what was sent, where to and under which transfer reference.
 */
export async function getPayoutReceipt(
  deps: AppDeps,
  disbursementId: string,
  viewer: ReceiptViewer,
): Promise<PayoutReceiptDto> {
  let query = deps.db
    .selectFrom('disbursements as d')
    .innerJoin('applications as a', 'a.id', 'd.application_id')
    .select([
      'd.id',
      'd.amount',
      'd.fee_minor',
      'd.bank_name',
      'd.account_number',
      'd.requested_at',
      'd.decided_at',
      'd.reference',
      'a.id as loan_id',
      'a.loan_number',
      'a.full_name',
    ])
    .where('d.id', '=', disbursementId)
    .where('d.status', '=', 'paid');
  if ('borrowerId' in viewer) query = query.where('a.borrower_id', '=', viewer.borrowerId);
  const payout = await query.executeTakeFirst();
  if (!payout?.decided_at) throw new AppError('NOT_FOUND');
  const fee = Number(payout.fee_minor);
  return {
    receiptNumber: receiptNumber('payout', payout.loan_number, payout.id),
    disbursementId: payout.id,
    loanId: payout.loan_id,
    loanNumber: payout.loan_number,
    borrowerName: payout.full_name,
    requestedAt: payout.requested_at.toISOString(),
    paidAt: payout.decided_at.toISOString(),
    amountMinor: payout.amount,
    feeMinor: fee,
    netMinor: payout.amount - fee,
    bankName: payout.bank_name,
    accountNumberLast4: payout.account_number.slice(-4),
    reference: payout.reference ?? '',
  };
}
