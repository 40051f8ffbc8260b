import type { TFunction } from 'i18next';
import type { BorrowerEventDto } from '../../../../domain/schemas/wallet';
import type { Formatters } from '../../../lib/format';

export interface HistoryText {
  /** One sentence saying what changed. */
  text: string;
  /** A second line: staff's note or the earlier value, when there is one. */
  note: string | null;
}

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A change staff made to the borrower's loan, as a translated sentence (SPEC principle 5). */
export function historyText(event: BorrowerEventDto, t: TFunction, format: Formatters): HistoryText {
  const data = event.data;
  const money = (value: unknown) => {
    const minor = num(value);
    return minor === null ? '-' : format.money(minor);
  };
  const message = str(event.message);
  const note = message ? t('wallet.history.note', { message }) : null;
  switch (event.kind) {
    case 'approved':
      return {
        text:
          num(data.creditScore) === null
            ? t('wallet.history.approved', { amount: money(data.approvedAmountMinor) })
            : t('wallet.history.approvedWithScore', {
                amount: money(data.approvedAmountMinor),
                score: num(data.creditScore),
              }),
        note: null,
      };
    case 'rejected':
      return {
        text: message
          ? t('wallet.history.rejectedReason', { reason: message })
          : t('wallet.history.rejected'),
        note: null,
      };
    case 'terms_changed': {
      const previous =
        num(data.previousAmountMinor) !== null && num(data.previousTermMonths) !== null
          ? t('wallet.history.termsBefore', {
              amount: money(data.previousAmountMinor),
              months: num(data.previousTermMonths),
            })
          : null;
      return {
        text: t('wallet.history.termsChanged', {
          amount: money(data.amountMinor),
          months: num(data.termMonths) ?? '-',
          payment: money(data.monthlyPaymentMinor),
        }),
        note: [previous, note].filter(Boolean).join(' ') || null,
      };
    }
    // Signed terms bind (docs/decisions/018): new terms proposed, and what became of them.
    case 'terms_change_proposed':
      return {
        text: t('wallet.history.termsProposed', {
          amount: money(data.amountMinor),
          months: num(data.termMonths) ?? '-',
          payment: money(data.monthlyPaymentMinor),
        }),
        note,
      };
    case 'terms_change_accepted':
      return {
        text: t('wallet.history.termsAccepted', {
          amount: money(data.amountMinor),
          months: num(data.termMonths) ?? '-',
        }),
        note: null,
      };
    case 'terms_change_declined':
      return { text: t('wallet.history.termsDeclined'), note: null };
    case 'terms_change_withdrawn':
      return { text: t('wallet.history.termsWithdrawn'), note };
    case 'on_hold':
      return {
        text: message ? t('wallet.history.onHold', { message }) : t('wallet.history.onHoldNoMessage'),
        note: null,
      };
    case 'released':
      return { text: t('wallet.history.released'), note: null };
    case 'bank_changed':
      return {
        text: t('wallet.history.bankChanged', {
          bank: str(data.bankName) ?? '-',
          last4: str(data.accountNumberLast4) ?? '-',
        }),
        note: null,
      };
    case 'credit_score_changed':
      return {
        text: t('wallet.history.creditScoreChanged', { score: num(data.creditScore) ?? '-' }),
        note: null,
      };
    case 'message':
      return { text: t('wallet.history.message', { message: message ?? '-' }), note: null };
    case 'disbursement_paid':
      return {
        text: str(data.reference)
          ? t('wallet.history.disbursementPaid', {
              amount: money(data.amountMinor),
              reference: str(data.reference),
            })
          : t('wallet.history.disbursementPaidNoReference', { amount: money(data.amountMinor) }),
        note: null,
      };
    case 'disbursement_failed':
      return {
        text: t('wallet.history.disbursementFailed', {
          amount: money(data.amountMinor),
          reason: message ?? '-',
        }),
        note: null,
      };
    case 'repayment_received':
      return {
        text: t('wallet.history.repaymentReceived', {
          amount: money(data.amountMinor),
          reference: str(data.reference) ?? '-',
        }),
        // More than the loan owed: the rest is held for the borrower and sent back (issue #31).
        note: num(data.creditMinor)
          ? t('wallet.history.creditHeld', { amount: money(data.creditMinor) })
          : null,
      };
    case 'credit_refunded':
      return {
        text: t('wallet.history.creditRefunded', {
          amount: money(data.amountMinor),
          reference: str(data.reference) ?? '-',
        }),
        note: null,
      };
    case 'repayment_reversed':
      return {
        text: t('wallet.history.repaymentReversed', {
          amount: money(data.amountMinor),
          reference: str(data.reference) ?? '-',
          reason: message ?? '-',
        }),
        note: null,
      };
    case 'loan_closed':
      return { text: t('wallet.history.loanClosed'), note: null };
    case 'loan_reopened':
      return { text: t('wallet.history.loanReopened', { reason: message ?? '-' }), note: null };
    case 'password_reset':
      return { text: t('wallet.history.passwordReset'), note: null };
    case 'payment_reminder':
      return {
        text:
          data.reminder === 'overdue'
            ? t('wallet.history.reminderOverdue', {
                amount: money(data.amountMinor),
                date: format.calendarDate(str(data.sinceDate)),
              })
            : t('wallet.history.reminderDue', {
                amount: money(data.amountMinor),
                date: format.calendarDate(str(data.dueDate)),
              }),
        note: null,
      };
    default:
      // A kind this version of the app does not know yet: still say something true, with staff's words.
      return { text: t('wallet.history.other'), note };
  }
}
