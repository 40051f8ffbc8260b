import { assertMinor } from '../../money';
import { parseIsoDate } from '../calendar';
import { MAX_TERM_MONTHS } from '../schedule';
import { defaultRepaymentRules, type RepaymentRules } from './caps';

/*
 * The records of one loan's money, as stored (docs/decisions/010): paid disbursements and repayments with
 * their reversals. Everything else is replayed from them. This step checks them and puts them in the order
 * the replay reads them.
 */

/** A disbursement that was paid out (requested or failed ones never count). */
export interface PaidDisbursement {
  /** Principal paid out (the gross amount: the borrower owes it, fee included). */
  readonly amountMinor: number;
  /** Civil date in the lender's time zone, 'YYYY-MM-DD'. */
  readonly paidOn: string;
  /** The fee taken from this payout (issue #31: the borrower received amount − fee); 0 when none. */
  readonly feeMinor?: number;
}

/** A repayment record. Never edited: a mistake is undone by a reversal, which removes it from the sums. */
export interface RepaymentRecord {
  readonly id: string;
  readonly amountMinor: number;
  readonly receivedOn: string;
  /** The date the reversal was recorded; from then on the repayment counts as never received. */
  readonly reversedOn?: string | null;
}

/** Money held for the borrower (above the payoff) that finance sent back, with the day it was recorded. */
export interface CreditRefund {
  readonly amountMinor: number;
  readonly refundedOn: string;
}

export interface LoanRecords {
  readonly termMonths: number;
  readonly monthlyRateBp: number;
  /**
   * Fees charged on this loan, for the 100 % total-cost cap. When absent, the sum of the paid disbursements'
   * own fees.
   */
  readonly feesMinor?: number;
  readonly disbursements: readonly PaidDisbursement[];
  /** In the order they were recorded; that order breaks ties between repayments of one day. */
  readonly repayments: readonly RepaymentRecord[];
  readonly refunds?: readonly CreditRefund[];
  readonly rules?: RepaymentRules;
}

function assertDate(value: string, label: string): void {
  if (!parseIsoDate(value)) throw new Error(`${label} must be a real 'YYYY-MM-DD' date, got ${value}`);
}

/** The records, checked, ordered and cut at `asOf` (records dated later are not known yet). */
export interface OrderedRecords {
  termMonths: number;
  monthlyRateBp: number;
  feesMinor: number;
  rules: RepaymentRules;
  tranches: { amountMinor: number; paidOn: string }[];
  receipts: RepaymentRecord[];
  refundedMinor: number;
  /** The reversal date of a repayment if it is known on `asOf`. */
  reversedOn: (r: RepaymentRecord) => string | null;
}

export function orderRecords(records: LoanRecords, asOf: string): OrderedRecords {
  const { termMonths: n, monthlyRateBp: bp } = records;
  const rules = records.rules ?? defaultRepaymentRules;
  assertDate(asOf, 'asOf');
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TERM_MONTHS) throw new Error('termMonths out of range');
  if (!Number.isSafeInteger(bp) || bp < 0) throw new Error('monthlyRateBp must be ≥ 0');
  if (!Number.isSafeInteger(rules.graceDays) || rules.graceDays < 0) throw new Error('graceDays must be ≥ 0');
  const lateBp = rules.lateChargeMonthlyBp;
  if (!Number.isSafeInteger(lateBp) || lateBp < 0) throw new Error('lateChargeMonthlyBp must be ≥ 0');
  for (const d of records.disbursements) {
    assertMinor(d.amountMinor, 'disbursement amountMinor');
    if (d.amountMinor <= 0) throw new Error('A paid disbursement must be positive');
    assertMinor(d.feeMinor ?? 0, 'disbursement feeMinor');
    if ((d.feeMinor ?? 0) < 0 || (d.feeMinor ?? 0) >= d.amountMinor)
      throw new Error('A fee must be 0 ≤ fee < amount');
    assertDate(d.paidOn, 'paidOn');
  }
  for (const r of records.repayments) {
    assertMinor(r.amountMinor, 'repayment amountMinor');
    if (r.amountMinor <= 0) throw new Error('A repayment must be positive');
    assertDate(r.receivedOn, 'receivedOn');
    if (r.reversedOn) assertDate(r.reversedOn, 'reversedOn');
  }
  for (const f of records.refunds ?? []) {
    assertMinor(f.amountMinor, 'refund amountMinor');
    if (f.amountMinor <= 0) throw new Error('A refund must be positive');
    assertDate(f.refundedOn, 'refundedOn');
  }
  const paid = records.disbursements.filter((d) => d.paidOn <= asOf);
  const feesMinor = records.feesMinor ?? paid.reduce((sum, d) => sum + (d.feeMinor ?? 0), 0);
  assertMinor(feesMinor, 'feesMinor');
  if (feesMinor < 0) throw new Error('feesMinor must be ≥ 0');

  const byDate =
    <T>(date: (item: T) => string) =>
    (a: { item: T; order: number }, b: typeof a) =>
      date(a.item) === date(b.item) ? a.order - b.order : date(a.item) < date(b.item) ? -1 : 1;
  const tranches = paid
    .map((item, order) => ({ item, order }))
    .sort(byDate((d) => d.paidOn))
    .map(({ item }) => ({ amountMinor: item.amountMinor, paidOn: item.paidOn }));
  // A reversal counts from the day it was recorded.
  const reversedOn = (r: RepaymentRecord) => (r.reversedOn && r.reversedOn <= asOf ? r.reversedOn : null);
  const receipts = records.repayments
    .filter((r) => r.receivedOn <= asOf)
    .map((item, order) => ({ item, order }))
    .filter(({ item }) => reversedOn(item) === null)
    .sort(byDate((r) => r.receivedOn))
    .map(({ item }) => item);
  const refundedMinor = (records.refunds ?? [])
    .filter((f) => f.refundedOn <= asOf)
    .reduce((sum, f) => sum + f.amountMinor, 0);
  return {
    termMonths: n,
    monthlyRateBp: bp,
    feesMinor,
    rules,
    tranches,
    receipts,
    refundedMinor,
    reversedOn,
  };
}
