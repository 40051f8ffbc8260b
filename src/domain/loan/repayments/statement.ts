import { type Allocation, deriveLoanPosition, isNothingOwed, type LoanRecords } from './ledger';

export type StatementLineKind =
  | 'payout'
  | 'refund'
  | 'interest'
  | 'late_charge'
  | 'repayment'
  | 'reversal'
  | 'interest_accrued';

/** One line of a statement of account. Amounts raise (+) or lower (−) what the borrower owes. */
export interface StatementLine {
  date: string;
  kind: StatementLineKind;
  amountMinor: number;
  /** Owed after this line; negative is money held for the borrower. */
  balanceMinor: number;
  instalmentNumber: number | null;
  repaymentId: string | null;
  /** Where a repayment went (null for reversed ones and for every other kind of line). */
  allocation: Allocation | null;
  /** A payout's fee, deducted from it (the borrower received amount − fee); null for other lines. */
  feeMinor: number | null;
}

export interface StatementOfAccount {
  asOf: string;
  startDate: string | null;
  principalPaidOutMinor: number;
  /** The fees deducted from the payouts. */
  feesChargedMinor: number;
  interestChargedMinor: number;
  lateChargesChargedMinor: number;
  /** Net of reversals. */
  receivedMinor: number;
  /** What the last line says: the payoff on `asOf` minus any credit held for the borrower. */
  closingBalanceMinor: number;
  paidInFull: boolean;
  lines: StatementLine[];
}

/** Same-day order: money out, then what became owed, then money in. */
const kindOrder: Record<StatementLineKind, number> = {
  payout: 0,
  interest: 1,
  late_charge: 2,
  repayment: 3,
  reversal: 4,
  refund: 5,
  interest_accrued: 6,
};

/**
 * The data a statement of account shows: payouts, each instalment's interest on its due date, late
 * charges as they were charged, repayments and reversals, money held for the borrower sent back, the interest
 * of the running instalment accrued to `asOf`, and the running balance. Derived from the same replay as the
 * position, so the closing balance is exactly the payoff amount (less any credit held for the borrower).
 */
export function buildStatementOfAccount(records: LoanRecords, asOf: string): StatementOfAccount {
  const position = deriveLoanPosition(records, asOf);
  type Draft = Omit<StatementLine, 'balanceMinor'>;
  const line = (draft: Partial<Draft> & Pick<Draft, 'date' | 'kind' | 'amountMinor'>): Draft => ({
    instalmentNumber: null,
    repaymentId: null,
    allocation: null,
    feeMinor: null,
    ...draft,
  });
  const drafts: Draft[] = [];
  for (const d of records.disbursements) {
    if (d.paidOn <= asOf)
      drafts.push(
        line({ date: d.paidOn, kind: 'payout', amountMinor: d.amountMinor, feeMinor: d.feeMinor ?? 0 }),
      );
  }
  for (const f of records.refunds ?? []) {
    if (f.refundedOn <= asOf)
      drafts.push(line({ date: f.refundedOn, kind: 'refund', amountMinor: f.amountMinor }));
  }
  for (const row of position.schedule) {
    // Interest is owed on the due date, or on the day a payoff settled the instalment early.
    const date = row.settledEarlyOn ?? (row.fixed ? row.dueDate : null);
    if (date !== null && row.interestMinor > 0) {
      drafts.push(
        line({
          date,
          kind: 'interest',
          amountMinor: row.interestMinor,
          instalmentNumber: row.number,
        }),
      );
    }
  }
  for (const charge of position.lateCharges) {
    drafts.push(line({ date: charge.date, kind: 'late_charge', amountMinor: charge.amountMinor }));
  }
  for (const r of position.repayments) {
    if (r.receivedOn > asOf) continue;
    drafts.push(
      line({
        date: r.receivedOn,
        kind: 'repayment',
        amountMinor: -r.amountMinor,
        repaymentId: r.id,
        allocation: r.allocation,
      }),
    );
    if (r.reversedOn) {
      drafts.push(
        line({ date: r.reversedOn, kind: 'reversal', amountMinor: r.amountMinor, repaymentId: r.id }),
      );
    }
  }
  const current = position.schedule.find((row) => !row.fixed);
  if (current && current.settledEarlyOn === null && position.interestAccruedMinor > 0) {
    drafts.push(
      line({
        date: asOf,
        kind: 'interest_accrued',
        amountMinor: position.interestAccruedMinor,
        instalmentNumber: current.number,
      }),
    );
  }
  const ordered = drafts
    .map((draft, order) => ({ draft, order }))
    .sort((a, b) =>
      a.draft.date !== b.draft.date
        ? a.draft.date < b.draft.date
          ? -1
          : 1
        : kindOrder[a.draft.kind] - kindOrder[b.draft.kind] || a.order - b.order,
    );
  let balance = 0;
  const lines = ordered.map(({ draft }) => {
    balance += draft.amountMinor;
    return { ...draft, balanceMinor: balance };
  });
  const received = lines
    .filter((l) => l.kind === 'repayment' || l.kind === 'reversal')
    .reduce((sum, l) => sum - l.amountMinor, 0);
  return {
    asOf,
    startDate: position.startDate,
    principalPaidOutMinor: position.principalPaidOutMinor,
    feesChargedMinor: lines.reduce((sum, l) => sum + (l.feeMinor ?? 0), 0),
    interestChargedMinor: lines
      .filter((l) => l.kind === 'interest' || l.kind === 'interest_accrued')
      .reduce((sum, l) => sum + l.amountMinor, 0),
    lateChargesChargedMinor: position.lateChargesChargedMinor,
    receivedMinor: received,
    closingBalanceMinor: balance,
    paidInFull: isNothingOwed(position),
    lines,
  };
}
