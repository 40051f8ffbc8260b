import { todayIn, writeIsoDate } from '../../../domain/date-text';
import { intlLocales, type Language } from '../../../domain/languages';
import { paidParts } from '../../../domain/loan/repayments/allocation-parts';
import { formatMoney } from '../../../domain/money';
import type { PaymentReceiptDto, PayoutReceiptDto } from '../../../domain/schemas/paying';
import en from './texts/en.json';
import fil from './texts/fil.json';
import km from './texts/km.json';
import zh from './texts/zh.json';

/** The receipt's texts in every language (key parity is tested). */
export const receiptTexts: Record<Language, typeof en> = { en, zh, km, fil };

export interface LabelledValue {
  label: string;
  value: string;
}

/** "{name}" placeholders filled in; an unknown one is left as written so a mistake shows. */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** Everything the receipt PDF writes, in the reader's language and the lender's formats. */
export interface ReceiptDocument {
  language: Language;
  lenderName: string;
  title: string;
  receiptNumber: string;
  issued: string;
  /** The figure the receipt is about: the amount received, or what was sent to the borrower. */
  headline: LabelledValue;
  /** A reversed payment: the word and why, in place of the breakdown. */
  reversed: { label: string; note: string } | null;
  facts: LabelledValue[];
  breakdownTitle: string;
  breakdown: LabelledValue[];
  notes: string[];
  footer: string;
}

interface Context {
  lenderName: string;
  supportEmail: string;
  timeZone: string;
  /** When the PDF is made (its "Issued" date). */
  now: Date;
}

function writers(language: Language, timeZone: string) {
  const locale = intlLocales[language];
  const date = (isoDate: string) => writeIsoDate(language, isoDate) ?? isoDate;
  return {
    money: (minor: number) => formatMoney(minor, { locale }),
    date,
    /** An instant as the calendar date it was in the lender's time zone. */
    day: (instant: string | Date) => date(todayIn(timeZone, new Date(instant))),
  };
}

/** What one kind of receipt writes itself; the rest (`receiptDocument`) is the same on every receipt. */
type ReceiptBody = Pick<
  ReceiptDocument,
  'title' | 'headline' | 'reversed' | 'breakdownTitle' | 'breakdown'
> & {
  /** The facts after the receipt number, loan number and borrower. */
  facts: LabelledValue[];
};

/**
 * A receipt in one language: the issuer, its number, the issue date, the receipt number, loan number and
 * borrower first among the facts, the acknowledgement and the footer; `body` writes what its kind adds.
 */
function receiptDocument(
  receipt: { receiptNumber: string; loanNumber: string; borrowerName: string },
  language: Language,
  context: Context,
  body: (t: (typeof receiptTexts)[Language], w: ReturnType<typeof writers>) => ReceiptBody,
): ReceiptDocument {
  const t = receiptTexts[language];
  const w = writers(language, context.timeZone);
  const { facts, ...own } = body(t, w);
  return {
    language,
    lenderName: context.lenderName,
    receiptNumber: receipt.receiptNumber,
    issued: fill(t.issued, { date: w.day(context.now) }),
    ...own,
    facts: [
      { label: t.receiptNumber, value: receipt.receiptNumber },
      { label: t.loanNumber, value: receipt.loanNumber },
      { label: t.borrower, value: receipt.borrowerName },
      ...facts,
    ],
    notes: [fill(t.acknowledgement, { lender: context.lenderName })],
    footer: fill(t.footer, { email: context.supportEmail }),
  };
}

/** A payment's receipt in one language. */
export function paymentReceiptDocument(
  receipt: PaymentReceiptDto,
  language: Language,
  context: Context,
): ReceiptDocument {
  const parts = receipt.allocation ? paidParts(receipt.allocation) : [];
  return receiptDocument(receipt, language, context, (t, w) => ({
    title: t.paymentTitle,
    headline: { label: t.amountReceived, value: w.money(receipt.amountMinor) },
    reversed: receipt.reversal
      ? {
          label: t.reversed,
          note: fill(t.reversedNote, {
            date: w.day(receipt.reversal.reversedAt),
            reason: receipt.reversal.reason,
          }),
        }
      : null,
    facts: [
      { label: t.receivedOn, value: w.date(receipt.receivedOn) },
      { label: t.channel, value: receipt.channelName },
      { label: t.reference, value: receipt.reference },
      { label: t.recordedOn, value: w.day(receipt.recordedAt) },
    ],
    breakdownTitle: t.appliedTitle,
    breakdown: parts.map(([name, minor]) => ({ label: t.allocation[name], value: w.money(minor) })),
  }));
}

/** A payout's receipt in one language. */
export function payoutReceiptDocument(
  receipt: PayoutReceiptDto,
  language: Language,
  context: Context,
): ReceiptDocument {
  return receiptDocument(receipt, language, context, (t, w) => ({
    title: t.payoutTitle,
    headline: { label: t.amountSent, value: w.money(receipt.netMinor) },
    reversed: null,
    facts: [
      { label: t.requestedOn, value: w.day(receipt.requestedAt) },
      { label: t.paidOn, value: w.day(receipt.paidAt) },
      {
        label: t.sentTo,
        value: fill(t.account, { bank: receipt.bankName, last4: receipt.accountNumberLast4 }),
      },
      { label: t.transferReference, value: receipt.reference },
    ],
    breakdownTitle: t.amountsTitle,
    breakdown: [
      { label: t.gross, value: w.money(receipt.amountMinor) },
      { label: t.fee, value: w.money(receipt.feeMinor) },
      { label: t.net, value: w.money(receipt.netMinor) },
    ],
  }));
}
