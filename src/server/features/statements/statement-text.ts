import { writeIsoDate } from '../../../domain/date-text';
import { intlLocales, type Language } from '../../../domain/languages';
import type { StatementLine, StatementOfAccount } from '../../../domain/loan/repayments';
import { paidParts } from '../../../domain/loan/repayments/allocation-parts';
import { formatMoney } from '../../../domain/money';
import { percentFormat } from '../../../domain/percent-text';
import en from './texts/en.json';
import fil from './texts/fil.json';
import km from './texts/km.json';
import zh from './texts/zh.json';

/** The statement's texts in every language (key parity is tested). */
export const statementTexts: Record<Language, typeof en> = { en, zh, km, fil };

/** The loan statuses a paid-out loan can have. */
export type StatementLoanStatus = 'approved' | 'on_hold' | 'closed';

export interface StatementInput {
  lenderName: string;
  supportEmail: string;
  loan: {
    loanNumber: string;
    borrowerName: string;
    status: StatementLoanStatus;
    approvedMinor: number;
    termMonths: number;
    monthlyRateBp: number;
  };
  statement: StatementOfAccount;
  /** What pays the loan off on the statement date (the position's payoff). */
  payoffMinor: number;
  /** What brings the loan up to date on the statement date (the position's amountDueNowMinor; issue #32). */
  dueNowMinor: number;
  /** The payment reference of each repayment, by id. */
  references: ReadonlyMap<string, string>;
}

export interface LabelledValue {
  label: string;
  value: string;
}

export interface StatementRow {
  date: string;
  description: string;
  /** Where a payment went, or the payment's reference: a second, smaller line. */
  detail: string | null;
  debit: string;
  credit: string;
  balance: string;
}

/** Everything the PDF writes, already in the reader's language and the lender's formats. */
export interface StatementDocument {
  language: Language;
  lenderName: string;
  loanNumber: string;
  title: string;
  facts: LabelledValue[];
  /** "Paid in full on <date>" when the loan is closed, else null. */
  paidInFull: { headline: string; note: string } | null;
  termsTitle: string;
  terms: LabelledValue[];
  transactionsTitle: string;
  columns: { date: string; description: string; debit: string; credit: string; balance: string };
  rows: StatementRow[];
  emptyText: string;
  totalsTitle: string;
  totals: LabelledValue[];
  /** What brings the loan up to date today, while something is due (the one figure of issue #32). */
  dueNow: LabelledValue | null;
  /** The payoff today, while something is owed. */
  payoff: LabelledValue | null;
  notes: string[];
  footer: string;
  pageLabel: (page: number, pages: number) => string;
}

/** Between the parts of a payment's detail; the no-break space keeps "·" off the start of a line. */
const separator = '\u00a0· ';

/** "{name}" placeholders filled in; an unknown one is left as written so a mistake shows. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/**
 * The day the loan was paid in full: the day the last payment still standing was received (the one that
 * cleared it, since a closed loan takes no later money).
 */
export function paidInFullOn(lines: readonly StatementLine[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.kind === 'repayment' && line.allocation !== null) return line.date;
  }
  return null;
}

/** The statement's texts and figures in one language: money and dates by the same rules as the app. */
export function statementDocument(input: StatementInput, language: Language): StatementDocument {
  const t = statementTexts[language];
  const locale = intlLocales[language];
  const money = (minor: number) => formatMoney(minor, { locale });
  const date = (isoDate: string) => writeIsoDate(language, isoDate) ?? isoDate;
  const percent = percentFormat(locale);
  const { loan, statement } = input;
  const asOf = date(statement.asOf);

  const closed = loan.status === 'closed';
  const paidOn = closed ? paidInFullOn(statement.lines) : null;
  const paidInFull = closed
    ? {
        headline: paidOn ? fill(t.paidInFull, { date: date(paidOn) }) : t.statuses.closed,
        note: t.paidInFullNote,
      }
    : null;

  const allocationText = (line: StatementLine): string | null => {
    const a = line.allocation;
    if (!a) return null;
    const written = paidParts(a).map(([name, minor]) => fill(t.allocation[name], { amount: money(minor) }));
    return written.length > 0 ? written.join(separator) : null;
  };

  const rows: StatementRow[] = statement.lines.map((line) => {
    const reference = line.repaymentId ? input.references.get(line.repaymentId) : undefined;
    const referenceText = reference ? fill(t.reference, { reference }) : null;
    const description = fill(t.lines[line.kind], { number: line.instalmentNumber ?? '' });
    const allocation = line.kind === 'repayment' ? allocationText(line) : null;
    const fee = line.feeMinor
      ? fill(t.payoutFee, { fee: money(line.feeMinor), net: money(line.amountMinor - line.feeMinor) })
      : null;
    const detail = [referenceText, allocation, fee].filter((part) => part !== null).join(separator) || null;
    return {
      date: date(line.date),
      description,
      detail,
      debit: line.amountMinor > 0 ? money(line.amountMinor) : '',
      credit: line.amountMinor < 0 ? money(-line.amountMinor) : '',
      balance: money(line.balanceMinor),
    };
  });

  const notes: string[] = [];
  if (statement.closingBalanceMinor < 0) notes.push(t.creditBalanceNote);

  return {
    language,
    lenderName: input.lenderName,
    loanNumber: loan.loanNumber,
    title: t.title,
    facts: [
      { label: t.statementDate, value: asOf },
      { label: t.borrower, value: loan.borrowerName },
      { label: t.loanNumber, value: loan.loanNumber },
      { label: t.status, value: t.statuses[loan.status] },
    ],
    paidInFull,
    termsTitle: t.terms,
    terms: [
      { label: t.amountApproved, value: money(loan.approvedMinor) },
      { label: t.paidOut, value: money(statement.principalPaidOutMinor) },
      { label: t.term, value: fill(t.termMonths, { months: loan.termMonths }) },
      { label: t.monthlyRate, value: percent.format(loan.monthlyRateBp / 10_000) },
      ...(statement.startDate ? [{ label: t.firstPayout, value: date(statement.startDate) }] : []),
    ],
    transactionsTitle: t.transactions,
    columns: t.columns,
    rows,
    emptyText: t.noTransactions,
    totalsTitle: t.totals.title,
    totals: [
      { label: t.totals.paidOut, value: money(statement.principalPaidOutMinor) },
      ...(statement.feesChargedMinor > 0
        ? [{ label: t.totals.fees, value: money(statement.feesChargedMinor) }]
        : []),
      { label: t.totals.interest, value: money(statement.interestChargedMinor) },
      { label: t.totals.lateCharges, value: money(statement.lateChargesChargedMinor) },
      { label: t.totals.received, value: money(statement.receivedMinor) },
      { label: fill(t.totals.closingBalance, { date: asOf }), value: money(statement.closingBalanceMinor) },
    ],
    dueNow:
      closed || input.dueNowMinor <= 0
        ? null
        : { label: fill(t.dueNowToday, { date: asOf }), value: money(input.dueNowMinor) },
    payoff:
      closed || input.payoffMinor <= 0
        ? null
        : { label: fill(t.payoffToday, { date: asOf }), value: money(input.payoffMinor) },
    notes,
    footer: fill(t.footer, { email: input.supportEmail }),
    pageLabel: (page, pages) => fill(t.page, { page, pages }),
  };
}
