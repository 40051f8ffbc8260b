import { assertMinor, divRoundHalfUp } from '../../money';
import { addDays, daysBetween, parseIsoDate } from '../calendar';
import { annuityPaymentMinor, buildSchedule, MAX_TERM_MONTHS, scheduleTotals } from '../schedule';
import { BP_PER_UNIT } from '../terms';
import { defaultRepaymentRules, type RepaymentRules } from './caps';
import { loanMonthBoundary, loanMonthUnits, MONTH_UNITS, RATE_DENOMINATOR, toCentavos } from './day-count';

/*
 * The money model of a loan after payout (docs/decisions/010-repayment-money-model.md). Only records are
 * stored — paid disbursements and repayments with their reversals; the schedule, every allocation, what is
 * due, overdue and needed to pay off are replayed from them, in date order, for any day.
 */

/** A disbursement that was paid out (requested or failed ones never count). */
export interface PaidDisbursement {
  readonly amountMinor: number;
  /** Civil date in the lender's time zone, 'YYYY-MM-DD'. */
  readonly paidOn: string;
}

/** A repayment record. Never edited: a mistake is undone by a reversal, which removes it from the sums. */
export interface RepaymentRecord {
  readonly id: string;
  readonly amountMinor: number;
  readonly receivedOn: string;
  /** The date the reversal was recorded; from then on the repayment counts as never received. */
  readonly reversedOn?: string | null;
}

export interface LoanRecords {
  readonly termMonths: number;
  readonly monthlyRateBp: number;
  /** Fees charged on this loan, for the 100 % total-cost cap. */
  readonly feesMinor?: number;
  readonly disbursements: readonly PaidDisbursement[];
  /** In the order they were recorded; that order breaks ties between repayments of one day. */
  readonly repayments: readonly RepaymentRecord[];
  readonly rules?: RepaymentRules;
}

/** Where one repayment went. The parts always add up to the amount received. */
export interface Allocation {
  lateChargesMinor: number;
  /** Interest of instalments already due, and at a payoff the interest accrued to that day. */
  interestMinor: number;
  /** Principal of instalments already due. */
  principalMinor: number;
  /** Paid ahead towards the next instalment, settled on its due date. */
  advanceMinor: number;
  /** Principal repaid before it was due; it lowers the remaining payments. */
  prepaidPrincipalMinor: number;
  /** More than everything owed: held for finance to refund or resolve, never dropped. */
  overpaymentMinor: number;
}

export interface AppliedRepayment {
  readonly id: string;
  readonly amountMinor: number;
  readonly receivedOn: string;
  readonly reversedOn: string | null;
  /** Null for a reversed repayment: it was taken out of every sum. */
  readonly allocation: Allocation | null;
}

export type InstalmentStatus = 'paid' | 'part_paid' | 'due' | 'overdue' | 'upcoming';

export interface InstalmentPosition {
  number: number;
  dueDate: string;
  principalMinor: number;
  interestMinor: number;
  paymentMinor: number;
  /** Scheduled principal left after this instalment (prepayments already taken off). */
  balanceMinor: number;
  /** Applied to this instalment so far, including money paid ahead. */
  paidMinor: number;
  unpaidMinor: number;
  /** False for instalments not yet due: their figures are today's projection. */
  fixed: boolean;
  /** The day a payoff settled this instalment before its due date: its interest ran only to then. */
  settledEarlyOn: string | null;
  status: InstalmentStatus;
  /** Days since the due date while unpaid (0 otherwise); overdue once it exceeds the grace days. */
  daysPastDue: number;
}

export interface LateChargeEntry {
  readonly date: string;
  readonly amountMinor: number;
}

export interface LoanPosition {
  asOf: string;
  /** The first payout date: instalment k is due k months later. Null before any payout. */
  startDate: string | null;
  termMonths: number;
  monthlyRateBp: number;
  principalPaidOutMinor: number;
  feesMinor: number;
  graceDays: number;
  lateChargeMonthlyBp: number;
  schedule: InstalmentPosition[];
  repayments: AppliedRepayment[];
  /** The level payment of the instalments not yet fixed or paid ahead (the last may differ by rounding),
   * and the first of them (null when none is left). */
  levelPaymentMinor: number;
  levelFromInstalment: number | null;
  /** Principal not yet repaid: the scheduled balance plus due principal still unpaid. */
  outstandingPrincipalMinor: number;
  principalDueMinor: number;
  interestDueMinor: number;
  /** Interest of the current month up to `asOf`, not yet due. */
  interestAccruedMinor: number;
  lateChargesChargedMinor: number;
  lateChargesDueMinor: number;
  lateCharges: LateChargeEntry[];
  /** Held towards the next instalment. */
  paidAheadMinor: number;
  prepaidPrincipalMinor: number;
  /** Received beyond everything owed. */
  overpaidMinor: number;
  /** Interest of the whole schedule (instalments due and still to come). */
  totalInterestMinor: number;
  /** Everything the loan costs beyond the principal: interest + fees + late charges. */
  totalCostMinor: number;
  /** What settles the loan on `asOf`: due amounts + outstanding principal + interest accrued − paid ahead. */
  payoffMinor: number;
  /** Oldest instalment not fully paid: what to pay next and by when. */
  nextPayment: { number: number; dueDate: string; amountMinor: number } | null;
  /** The most days past due of an overdue instalment (0 when none), and the overdue amount. */
  daysPastDue: number;
  overdueMinor: number;
}

interface ProjectedRow {
  number: number;
  dueDate: string;
  principal: number;
  interest: number;
  balanceAfter: number;
  settledEarlyOn: string | null;
}

interface DueRow extends ProjectedRow {
  paidInterest: number;
  paidPrincipal: number;
}

const BP = BigInt(BP_PER_UNIT);

/**
 * Late charges accrue per day at 1/31 of the monthly rate, so no stretch of one month (28–31 days) is ever
 * charged more than the monthly rate: the 5 % ceiling holds however a month is counted.
 */
const LATE_DAY_UNITS = MONTH_UNITS / 31n;

function assertDate(value: string, label: string): void {
  if (!parseIsoDate(value)) throw new Error(`${label} must be a real 'YYYY-MM-DD' date, got ${value}`);
}

/**
 * The level payment that repays `balanceNumerator` (centavos × RATE_DENOMINATOR, the principal plus the
 * current month's interest) over `count` instalments, the first due at the end of the current month:
 * annuity(X, m) / (1 + r) = X·bp·G^(m−1) / (G^m − 10000^m) with G = 10000 + bp, one exact fraction and one
 * rounding. For a whole month this is exactly annuityPaymentMinor(balance, m, bp).
 */
function levelPayment(balanceNumerator: bigint, count: number, monthlyRateBp: number): number {
  if (balanceNumerator <= 0n || count < 1) return 0;
  if (monthlyRateBp === 0) return Number(divRoundHalfUp(balanceNumerator, RATE_DENOMINATOR * BigInt(count)));
  const bp = BigInt(monthlyRateBp);
  const grown = BP + bp;
  const numerator = balanceNumerator * bp * grown ** BigInt(count - 1);
  const denominator = RATE_DENOMINATOR * (grown ** BigInt(count) - BP ** BigInt(count));
  return Number(divRoundHalfUp(numerator, denominator));
}

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(high, value));

/**
 * Replays the records of one loan up to `asOf` and derives everything about it: the schedule with each
 * instalment's state, where every repayment went, what is due, overdue, accrued and needed to pay off.
 * Nothing here is stored; the same records always give the same position. See docs/decisions/010.
 */
export function deriveLoanPosition(records: LoanRecords, asOf: string): LoanPosition {
  const { termMonths: n, monthlyRateBp: bp } = records;
  const rules = records.rules ?? defaultRepaymentRules;
  const feesMinor = records.feesMinor ?? 0;
  assertDate(asOf, 'asOf');
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TERM_MONTHS) throw new Error('termMonths out of range');
  if (!Number.isSafeInteger(bp) || bp < 0) throw new Error('monthlyRateBp must be ≥ 0');
  assertMinor(feesMinor, 'feesMinor');
  if (feesMinor < 0) throw new Error('feesMinor must be ≥ 0');
  if (!Number.isSafeInteger(rules.graceDays) || rules.graceDays < 0) throw new Error('graceDays must be ≥ 0');
  const lateBp = rules.lateChargeMonthlyBp;
  if (!Number.isSafeInteger(lateBp) || lateBp < 0) throw new Error('lateChargeMonthlyBp must be ≥ 0');
  for (const d of records.disbursements) {
    assertMinor(d.amountMinor, 'disbursement amountMinor');
    if (d.amountMinor <= 0) throw new Error('A paid disbursement must be positive');
    assertDate(d.paidOn, 'paidOn');
  }
  for (const r of records.repayments) {
    assertMinor(r.amountMinor, 'repayment amountMinor');
    if (r.amountMinor <= 0) throw new Error('A repayment must be positive');
    assertDate(r.receivedOn, 'receivedOn');
    if (r.reversedOn) assertDate(r.reversedOn, 'reversedOn');
  }

  // Records dated after asOf are not known yet; a reversal counts from the day it was recorded.
  const tranches = records.disbursements
    .filter((d) => d.paidOn <= asOf)
    .map((d, order) => ({ ...d, order }))
    .sort((a, b) => (a.paidOn === b.paidOn ? a.order - b.order : a.paidOn < b.paidOn ? -1 : 1));
  const reversedBy = (r: RepaymentRecord) => (r.reversedOn && r.reversedOn <= asOf ? r.reversedOn : null);
  const known = records.repayments.filter((r) => r.receivedOn <= asOf);
  const receipts = known
    .map((r, order) => ({ r, order }))
    .filter(({ r }) => reversedBy(r) === null)
    .sort((a, b) =>
      a.r.receivedOn === b.r.receivedOn ? a.order - b.order : a.r.receivedOn < b.r.receivedOn ? -1 : 1,
    );

  const allocations = new Map<RepaymentRecord, Allocation>();
  const startDate = tranches[0]?.paidOn ?? null;
  const dueDate = (k: number) => loanMonthBoundary(startDate as string, k);

  // ——— state of the replay ———
  let k = 1; // the instalment whose month is running
  let clock = startDate ?? asOf; // interest and late charges are accrued up to here
  let balance = 0; // scheduled principal: paid out − scheduled principal of due instalments − prepaid
  let accrual = 0n; // interest of month k so far, over RATE_DENOMINATOR
  let level = 0; // payment of the instalments being amortised
  let locked: number | null = null; // instalment k's payment once it was paid ahead in full
  let advance = 0; // money held towards instalment k
  let settledEarlyOn: string | null = null; // a payoff during month k
  let drawn = 0;
  let interestCap = 0; // interest of the single-payout schedule for what was drawn
  let prepaid = 0;
  let overpaid = 0;
  let lateExact = 0n;
  let lateAccrued = 0; // rounded late charges before the cap
  let lateCharged = 0; // after the cap; never decreases
  let latePaid = 0;
  const lateCharges: LateChargeEntry[] = [];
  const due: DueRow[] = [];
  const fixedInterest = () => due.reduce((sum, row) => sum + row.interest, 0);

  /** Interest still allowed: never above the single-payout schedule, never past the 100 % cap. */
  const interestRoom = () =>
    Math.max(0, Math.min(interestCap, drawn - feesMinor - lateCharged) - fixedInterest());

  /** Instalments k…n as they stand if nothing else happens. */
  const project = (): ProjectedRow[] => {
    const rows: ProjectedRow[] = [];
    if (startDate === null) return rows;
    let bal = balance;
    let room = interestRoom();
    for (let j = k; j <= n; j++) {
      const date = dueDate(j);
      const exact =
        j === k
          ? accrual + BigInt(bal) * BigInt(bp) * loanMonthUnits(startDate, clock, date)
          : BigInt(bal) * BigInt(bp) * MONTH_UNITS;
      let interest = Math.min(toCentavos(exact), room);
      let principal: number;
      const isLocked = j === k && locked !== null;
      if (j === n) {
        principal = bal;
        // The last instalment absorbs the rounding: it is the level payment when that covers the balance
        // (as buildSchedule does), so a schedule without events matches it exactly.
        const remainder = level - bal;
        if (!isLocked && bp > 0 && bal > 0 && remainder >= 0) interest = Math.min(remainder, room);
      } else {
        principal = clamp((isLocked ? (locked as number) : level) - interest, 0, bal);
      }
      room -= interest;
      bal -= principal;
      rows.push({
        number: j,
        dueDate: date,
        principal,
        interest,
        balanceAfter: bal,
        settledEarlyOn: j === k ? settledEarlyOn : null,
      });
    }
    return rows;
  };

  /** After a change of principal: spread what is left over the instalments not yet fixed. */
  const reamortise = () => {
    if (startDate === null || k > n) return;
    if (locked === null) {
      const units = loanMonthUnits(startDate, clock, dueDate(k));
      const owedAtDue = accrual + BigInt(balance) * (BigInt(bp) * units + RATE_DENOMINATOR);
      level = levelPayment(owedAtDue, n - k + 1, bp);
    } else {
      const [current] = project();
      const after = current ? current.balanceAfter : balance;
      level = k < n && after > 0 ? annuityPaymentMinor(after, n - k, bp) : 0;
    }
  };

  const chargeLate = (date: string) => {
    const rounded = toCentavos(lateExact);
    const increment = rounded - lateAccrued;
    lateAccrued = rounded;
    if (increment <= 0) return;
    const projectedInterest = fixedInterest() + project().reduce((sum, row) => sum + row.interest, 0);
    const room = Math.max(0, drawn - feesMinor - projectedInterest - lateCharged);
    const charged = Math.min(increment, room); // beyond the 100 % cap a late charge is waived for good
    if (charged > 0) {
      lateCharged += charged;
      lateCharges.push({ date, amountMinor: charged });
    }
  };

  /** Interest of month k and late charges on overdue instalments, from `clock` to `to`. */
  const accrueTo = (to: string) => {
    if (startDate === null || to <= clock) return;
    if (k <= n) accrual += BigInt(balance) * BigInt(bp) * loanMonthUnits(startDate, clock, to);
    if (lateBp > 0) {
      for (const row of due) {
        const unpaid = row.principal + row.interest - row.paidInterest - row.paidPrincipal;
        if (unpaid <= 0) continue;
        const from = addDays(row.dueDate, rules.graceDays);
        const days = Math.min(daysBetween(from, to), daysBetween(clock, to)); // from the later start
        if (days > 0) lateExact += BigInt(unpaid) * BigInt(lateBp) * BigInt(days) * LATE_DAY_UNITS;
      }
    }
    clock = to;
    chargeLate(to);
  };

  const prepay = (amount: number) => {
    const applied = Math.min(amount, balance);
    balance -= applied;
    prepaid += applied;
    overpaid += amount - applied;
    reamortise();
  };

  /** Instalment k falls due: its figures are fixed and the money paid ahead settles it. */
  const fixDue = () => {
    const [row] = project();
    if (!row) return;
    const paidInterest = Math.min(advance, row.interest);
    const paidPrincipal = Math.min(advance - paidInterest, row.principal);
    const excess = advance - paidInterest - paidPrincipal;
    due.push({ ...row, paidInterest, paidPrincipal });
    balance -= row.principal;
    k += 1;
    accrual = 0n;
    locked = null;
    advance = 0;
    settledEarlyOn = null;
    if (excess > 0) prepay(excess);
  };

  const advanceTo = (date: string) => {
    while (startDate !== null && k <= n && dueDate(k) <= date) {
      accrueTo(dueDate(k));
      fixDue();
    }
    accrueTo(date);
  };

  const addTranche = (amount: number, paidOn: string) => {
    if (startDate !== null && paidOn >= dueDate(n)) {
      throw new Error(`A payout on ${paidOn} is after the last instalment; it cannot be amortised`);
    }
    advanceTo(paidOn);
    balance += amount;
    drawn += amount;
    settledEarlyOn = null; // money out again: this month's interest runs on
    interestCap = scheduleTotals(
      buildSchedule({ amountMinor: drawn, termMonths: n, monthlyRateBp: bp, startDate: startDate as string }),
    ).totalInterestMinor;
    reamortise();
  };

  const receive = (amount: number, receivedOn: string): Allocation => {
    const allocation: Allocation = {
      lateChargesMinor: 0,
      interestMinor: 0,
      principalMinor: 0,
      advanceMinor: 0,
      prepaidPrincipalMinor: 0,
      overpaymentMinor: 0,
    };
    let rest = amount;
    const take = (owed: number) => {
      const part = clamp(owed, 0, rest);
      rest -= part;
      return part;
    };
    if (startDate === null || receivedOn < startDate) {
      allocation.overpaymentMinor = amount;
      overpaid += amount;
      return allocation;
    }
    advanceTo(receivedOn);
    const late = take(lateCharged - latePaid);
    latePaid += late;
    allocation.lateChargesMinor = late;
    for (const row of due) {
      const part = take(row.interest - row.paidInterest);
      row.paidInterest += part;
      allocation.interestMinor += part;
    }
    for (const row of due) {
      const part = take(row.principal - row.paidPrincipal);
      row.paidPrincipal += part;
      allocation.principalMinor += part;
    }
    if (rest > 0 && k <= n) {
      const accrued = Math.min(toCentavos(accrual), interestRoom());
      const payoff = Math.max(0, balance + accrued - advance);
      // Checked first, so paying ahead can never hold more than balance + accrued interest: a payment that
      // covers everything settles the loan with interest to today, never a full month's.
      if (rest >= payoff) {
        // Pays the loan off: interest only up to today; instalment k becomes that interest alone.
        allocation.interestMinor += Math.max(0, accrued - advance);
        allocation.prepaidPrincipalMinor += balance - Math.max(0, advance - accrued);
        rest -= payoff;
        prepaid += balance;
        balance = 0;
        locked = accrued;
        advance = accrued;
        level = 0;
        settledEarlyOn = receivedOn;
      } else {
        const [current] = project();
        const payment = locked ?? (current ? current.principal + current.interest : 0);
        if (locked === null && advance + rest >= payment) {
          const part = Math.max(0, payment - advance);
          allocation.advanceMinor += part;
          rest -= part;
          advance = payment;
          locked = payment;
        }
        if (locked !== null && rest > 0) {
          allocation.prepaidPrincipalMinor += rest;
          prepay(rest);
          rest = 0;
        } else if (rest > 0) {
          allocation.advanceMinor += rest;
          advance += rest;
          rest = 0;
        }
      }
    }
    if (rest > 0) {
      allocation.overpaymentMinor += rest;
      overpaid += rest;
    }
    return allocation;
  };

  // ——— replay: each day, instalments falling due first, then payouts, then repayments ———
  let nextTranche = 0;
  let nextReceipt = 0;
  while (nextTranche < tranches.length || nextReceipt < receipts.length) {
    const tranche = tranches[nextTranche];
    const receipt = receipts[nextReceipt];
    if (tranche && (!receipt || tranche.paidOn <= receipt.r.receivedOn)) {
      addTranche(tranche.amountMinor, tranche.paidOn);
      nextTranche++;
    } else if (receipt) {
      allocations.set(receipt.r, receive(receipt.r.amountMinor, receipt.r.receivedOn));
      nextReceipt++;
    }
  }
  advanceTo(asOf);

  // ——— the position on asOf ———
  const projected = project();
  const accruedNow = k <= n && startDate !== null ? Math.min(toCentavos(accrual), interestRoom()) : 0;
  const schedule: InstalmentPosition[] = [
    ...due.map((row) => {
      const payment = row.principal + row.interest;
      const paid = row.paidInterest + row.paidPrincipal;
      return instalmentPosition(row, payment, paid, true, asOf, rules.graceDays);
    }),
    ...projected.map((row, index) =>
      instalmentPosition(
        row,
        row.principal + row.interest,
        index === 0 ? advance : 0,
        false,
        asOf,
        rules.graceDays,
      ),
    ),
  ];

  const principalDue = due.reduce((sum, row) => sum + row.principal - row.paidPrincipal, 0);
  const interestDue = due.reduce((sum, row) => sum + row.interest - row.paidInterest, 0);
  const lateDue = lateCharged - latePaid;
  const payoff =
    lateDue + interestDue + principalDue + (k <= n ? Math.max(0, balance + accruedNow - advance) : 0);
  const totalInterest = schedule.reduce((sum, row) => sum + row.interestMinor, 0);
  const overdueRows = schedule.filter((row) => row.status === 'overdue');
  const next = schedule.find((row) => row.unpaidMinor > 0);

  return {
    asOf,
    startDate,
    termMonths: n,
    monthlyRateBp: bp,
    principalPaidOutMinor: drawn,
    feesMinor,
    graceDays: rules.graceDays,
    lateChargeMonthlyBp: lateBp,
    schedule,
    repayments: records.repayments.map((r) => ({
      id: r.id,
      amountMinor: r.amountMinor,
      receivedOn: r.receivedOn,
      reversedOn: reversedBy(r),
      allocation: allocations.get(r) ?? null,
    })),
    levelPaymentMinor: level,
    levelFromInstalment: levelFrom(k, n, level, locked !== null),
    outstandingPrincipalMinor: balance + principalDue,
    principalDueMinor: principalDue,
    interestDueMinor: interestDue,
    interestAccruedMinor: accruedNow,
    lateChargesChargedMinor: lateCharged,
    lateChargesDueMinor: lateDue,
    lateCharges,
    paidAheadMinor: advance,
    prepaidPrincipalMinor: prepaid,
    overpaidMinor: overpaid,
    totalInterestMinor: totalInterest,
    totalCostMinor: totalInterest + feesMinor + lateCharged,
    payoffMinor: payoff,
    nextPayment: next ? { number: next.number, dueDate: next.dueDate, amountMinor: next.unpaidMinor } : null,
    daysPastDue: overdueRows.reduce((most, row) => Math.max(most, row.daysPastDue), 0),
    overdueMinor: overdueRows.reduce((sum, row) => sum + row.unpaidMinor, 0),
  };
}

function instalmentPosition(
  row: ProjectedRow,
  payment: number,
  paid: number,
  fixed: boolean,
  asOf: string,
  graceDays: number,
): InstalmentPosition {
  const unpaid = Math.max(0, payment - paid);
  const pastDue = fixed && unpaid > 0 ? daysBetween(row.dueDate, asOf) : 0;
  let status: InstalmentStatus;
  if (unpaid === 0) status = 'paid';
  else if (!fixed) status = paid > 0 ? 'part_paid' : 'upcoming';
  else if (pastDue > graceDays) status = 'overdue';
  else status = paid > 0 ? 'part_paid' : 'due';
  return {
    number: row.number,
    dueDate: row.dueDate,
    principalMinor: row.principal,
    interestMinor: row.interest,
    paymentMinor: payment,
    balanceMinor: row.balanceAfter,
    paidMinor: Math.min(paid, payment),
    unpaidMinor: unpaid,
    fixed,
    settledEarlyOn: row.settledEarlyOn,
    status,
    daysPastDue: pastDue,
  };
}

function levelFrom(k: number, n: number, level: number, locked: boolean): number | null {
  if (k > n || level === 0) return null;
  if (!locked) return k;
  return k < n ? k + 1 : null;
}

/** Closure: nothing at all is owed on the loan (principal, interest, late charges) on the position's date. */
export function isNothingOwed(position: LoanPosition): boolean {
  return (
    position.principalPaidOutMinor > 0 &&
    position.payoffMinor === 0 &&
    position.schedule.every((row) => row.unpaidMinor === 0)
  );
}
