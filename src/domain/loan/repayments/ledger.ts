import { addDays, daysBetween } from '../calendar';
import { buildSchedule, scheduleTotals } from '../schedule';
import { interestNumerator, lateChargeNumerator, levelPayment, monthInterestNumerator } from './accrual';
import { loanMonthBoundary, loanMonthUnits, RATE_DENOMINATOR, toCentavos } from './day-count';
import { type LoanRecords, type OrderedRecords, orderRecords, type RepaymentRecord } from './records';

export type { LoanRecords, RepaymentRecord } from './records';

/*
 * The money model of a loan after payout (docs/decisions/010, 035). Only records are stored — paid
 * disbursements, repayments with their reversals, refunds of money held; the schedule, every allocation,
 * what is due, overdue, accrued and needed to pay off are replayed from them, in date order, for any day.
 *
 * The replay is three steps, each in its own place: the records checked and ordered (`records.ts`), time
 * passing — interest on the principal actually owed and late charges (`accrual.ts`), and money arriving —
 * where each repayment goes (`Replay.receive` below, the one allocation rule). `Replay` holds the state
 * between them: the instalment running, its interest so far, the principal still bearing interest.
 */

/** Where one repayment went. The parts always add up to the amount received. */
export interface Allocation {
  lateChargesMinor: number;
  /** Interest of instalments already due, and the next instalment's interest accrued to the day received. */
  interestMinor: number;
  /** Principal of instalments already due. */
  principalMinor: number;
  /**
   * Principal of the next instalment paid before its due date (at a payoff, all the principal left): it
   * stops bearing interest that day.
   */
  advanceMinor: number;
  /** Principal repaid beyond the next instalment: it lowers the remaining payments. */
  prepaidPrincipalMinor: number;
  /** More than everything owed: held for the borrower as credit until finance refunds it. */
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
  /** Principal left after this instalment. */
  balanceMinor: number;
  /** Applied to this instalment so far, including money paid ahead. */
  paidMinor: number;
  unpaidMinor: number;
  /** False for instalments not yet due and not yet paid in full: their figures are today's projection. */
  fixed: boolean;
  /** The day the instalment was paid in full before its due date: its interest ran only to then. */
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
  /** The level payment of the instalments still running (the last may differ by rounding), and the first
   * of them (null when none is left). */
  levelPaymentMinor: number;
  levelFromInstalment: number | null;
  /** Principal not yet repaid: principal still bearing interest plus due principal unpaid. */
  outstandingPrincipalMinor: number;
  principalDueMinor: number;
  interestDueMinor: number;
  /** Interest of the running instalment up to `asOf` (what was paid of it ahead included), not yet due. */
  interestAccruedMinor: number;
  lateChargesChargedMinor: number;
  lateChargesDueMinor: number;
  lateCharges: LateChargeEntry[];
  /** Paid towards the next instalment before its due date (its interest to date and principal). */
  paidAheadMinor: number;
  prepaidPrincipalMinor: number;
  /** Received beyond everything owed, ever. */
  overpaidMinor: number;
  /** Of that, refunded by finance. */
  refundedMinor: number;
  /** Held for the borrower now: overpaid − refunded (never negative; a refund beyond it is owed back). */
  creditMinor: number;
  /** Interest of the whole schedule (instalments due and still to come). */
  totalInterestMinor: number;
  /** Everything the loan costs beyond the principal: interest + fees + late charges. */
  totalCostMinor: number;
  /** What settles the loan on `asOf`: due amounts + principal bearing interest + interest accrued unpaid. */
  payoffMinor: number;
  /**
   * The one figure "pay this to be up to date" (issue #32): late charges due and every instalment fallen due
   * and unpaid, in its grace days or overdue. Paid today, it leaves nothing due or overdue.
   */
  amountDueNowMinor: number;
  /** Oldest instalment not fully paid: what to pay next and by when. */
  nextPayment: { number: number; dueDate: string; amountMinor: number } | null;
  /** The most days past due of an overdue instalment (0 when none), and the overdue amount. */
  daysPastDue: number;
  overdueMinor: number;
}

/** An instalment whose figures no longer change: fallen due, or paid in full ahead of its due date. */
interface FixedRow {
  number: number;
  dueDate: string;
  principal: number;
  interest: number;
  balanceAfter: number;
  settledEarlyOn: string | null;
  paidInterest: number;
  paidPrincipal: number;
}

interface ProjectedRow {
  number: number;
  dueDate: string;
  principal: number;
  interest: number;
  balanceAfter: number;
  paid: number;
}

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(high, value));

/** An allocation of nothing: what a payment fills in, part by part. */
export const emptyAllocation = (): Allocation => ({
  lateChargesMinor: 0,
  interestMinor: 0,
  principalMinor: 0,
  advanceMinor: 0,
  prepaidPrincipalMinor: 0,
  overpaymentMinor: 0,
});

/** What the payoff step changed, so a payout after it (money out again) can reopen the loan. */
interface PaidOff {
  on: string;
  rowCount: number;
  k: number;
  exact: bigint;
  aheadInterest: number;
  aheadPrincipal: number;
}

class Replay {
  private readonly n: number;
  private readonly bp: number;
  private readonly lateBp: number;
  private readonly graceDays: number;
  private readonly feesMinor: number;
  startDate: string | null = null;

  /** The instalment running: the first neither fallen due nor paid in full. */
  k = 1;
  /** Interest and late charges are accrued up to here. */
  clock = '';
  /** Principal paid out, not repaid, not yet due: what bears interest. */
  balance = 0;
  /** Interest of instalment k so far, exact (over RATE_DENOMINATOR). */
  exact = 0n;
  /** Paid towards instalment k before its due date: its interest, and its principal (out of `balance`). */
  aheadInterest = 0;
  aheadPrincipal = 0;
  /** The payment of the instalments still running. */
  level = 0;
  drawn = 0;
  /** Interest of the single-payout schedule for what was drawn: never charged more. */
  interestCap = 0;
  prepaid = 0;
  overpaid = 0;
  paidOff: PaidOff | null = null;
  lateExact = 0n;
  lateAccrued = 0;
  lateCharged = 0;
  latePaid = 0;
  readonly lateCharges: LateChargeEntry[] = [];
  readonly rows: FixedRow[] = [];

  constructor(ordered: OrderedRecords) {
    this.n = ordered.termMonths;
    this.bp = ordered.monthlyRateBp;
    this.lateBp = ordered.rules.lateChargeMonthlyBp;
    this.graceDays = ordered.rules.graceDays;
    this.feesMinor = ordered.feesMinor;
  }

  dueDate(j: number): string {
    return loanMonthBoundary(this.startDate as string, j);
  }

  /** Interest still allowed: never above the single-payout schedule, never past the 100 % cap. */
  interestRoom(): number {
    const fixed = this.rows.reduce((sum, row) => sum + row.interest, 0);
    return Math.max(0, Math.min(this.interestCap, this.drawn - this.feesMinor - this.lateCharged) - fixed);
  }

  /** Instalment k's interest so far, rounded once and within the caps. */
  accruedInterest(): number {
    return Math.min(toCentavos(this.exact), this.interestRoom());
  }

  // ——— time passing ———

  /** Interest of instalment k and late charges on overdue instalments, from `clock` to `to`. */
  accrueTo(to: string): void {
    if (this.startDate === null || to <= this.clock) return;
    if (this.k <= this.n)
      this.exact += interestNumerator(this.balance, this.bp, this.startDate, this.clock, to);
    if (this.lateBp > 0) {
      for (const row of this.rows) {
        const unpaid = row.principal + row.interest - row.paidInterest - row.paidPrincipal;
        // From the later of the end of its grace and the clock.
        const days = Math.min(
          daysBetween(addDays(row.dueDate, this.graceDays), to),
          daysBetween(this.clock, to),
        );
        this.lateExact += lateChargeNumerator(unpaid, this.lateBp, days);
      }
    }
    this.clock = to;
    this.chargeLate(to);
  }

  private chargeLate(date: string): void {
    const rounded = toCentavos(this.lateExact);
    const increment = rounded - this.lateAccrued;
    this.lateAccrued = rounded;
    if (increment <= 0) return;
    const projectedInterest =
      this.rows.reduce((sum, row) => sum + row.interest, 0) +
      this.project().reduce((sum, row) => sum + row.interest, 0);
    const room = Math.max(0, this.drawn - this.feesMinor - projectedInterest - this.lateCharged);
    const charged = Math.min(increment, room); // beyond the 100 % cap a late charge is waived for good
    if (charged > 0) {
      this.lateCharged += charged;
      this.lateCharges.push({ date, amountMinor: charged });
    }
  }

  /** Every instalment falling due by `date` is fixed, then time runs on to `date`. */
  advanceTo(date: string): void {
    while (this.startDate !== null && this.k <= this.n && this.dueDate(this.k) <= date) {
      this.accrueTo(this.dueDate(this.k));
      this.fallDue();
    }
    this.accrueTo(date);
  }

  /**
   * Instalment k falls due: its interest is what accrued over its period, its principal the rest of the
   * level payment. Money paid towards it ahead settles it, interest first: principal paid ahead that its
   * interest now needs returns to the balance from today (it bore no interest while it was paid), and money
   * beyond the instalment stays paid ahead towards the next one.
   */
  private fallDue(): void {
    const interest = this.accruedInterest();
    const scheduled = this.balance + this.aheadPrincipal;
    const principal = this.k === this.n ? scheduled : clamp(this.level - interest, 0, scheduled);
    const paidAhead = this.aheadInterest + this.aheadPrincipal;
    const paidInterest = Math.min(paidAhead, interest);
    const paidPrincipal = Math.min(paidAhead - paidInterest, principal);
    const extra = paidAhead - paidInterest - paidPrincipal;
    const carried = Math.min(extra, scheduled - principal);
    this.overpaid += extra - carried;
    this.balance = scheduled - principal - carried;
    this.rows.push({
      number: this.k,
      dueDate: this.dueDate(this.k),
      principal,
      interest,
      balanceAfter: scheduled - principal,
      settledEarlyOn: null,
      paidInterest,
      paidPrincipal,
    });
    this.k += 1;
    this.exact = 0n;
    this.aheadInterest = 0;
    this.aheadPrincipal = carried;
  }

  /** After a change of principal: spread what is owed over the instalments still running. */
  private reamortise(): void {
    if (this.startDate === null || this.k > this.n) return;
    const units = loanMonthUnits(this.startDate, this.clock, this.dueDate(this.k));
    const owedAtDue =
      this.exact +
      BigInt(this.balance) * (BigInt(this.bp) * units + RATE_DENOMINATOR) +
      BigInt(this.aheadPrincipal) * RATE_DENOMINATOR;
    this.level = levelPayment(owedAtDue, this.n - this.k + 1, this.bp);
  }

  // ——— money out ———

  addTranche(amount: number, paidOn: string): void {
    if (this.startDate === null) {
      this.startDate = paidOn;
      this.clock = paidOn;
    } else if (paidOn >= this.dueDate(this.n)) {
      throw new Error(`A payout on ${paidOn} is after the last instalment; it cannot be amortised`);
    }
    this.advanceTo(paidOn);
    if (this.paidOff) this.reopen();
    this.balance += amount;
    this.drawn += amount;
    this.interestCap = scheduleTotals(
      buildSchedule({
        amountMinor: this.drawn,
        termMonths: this.n,
        monthlyRateBp: this.bp,
        startDate: this.startDate,
      }),
    ).totalInterestMinor;
    this.reamortise();
  }

  /**
   * Money out again after a payoff: the instalment it settled runs on. The interest the payoff paid stays
   * paid towards it; the principal it paid stays repaid, as principal prepaid is (it lowers the instalments
   * still running rather than waiting as money paid ahead, so at most one instalment is ever paid ahead and
   * the stored facts stay true as days pass, docs/decisions/012).
   */
  private reopen(): void {
    const p = this.paidOff as PaidOff;
    const settled = this.rows[p.rowCount] as FixedRow;
    this.rows.length = p.rowCount;
    this.k = p.k;
    this.exact = p.exact;
    this.aheadInterest = settled.interest;
    this.aheadPrincipal = 0;
    this.prepaid += settled.principal;
    this.paidOff = null;
  }

  // ——— money in ———

  receive(amount: number, receivedOn: string): Allocation {
    const allocation = emptyAllocation();
    let rest = amount;
    const take = (owed: number) => {
      const part = clamp(owed, 0, rest);
      rest -= part;
      return part;
    };
    if (this.startDate === null || receivedOn < this.startDate) {
      allocation.overpaymentMinor = amount;
      this.overpaid += amount;
      return allocation;
    }
    this.advanceTo(receivedOn);
    // 1. Late charges; 2. interest of instalments due, oldest first; 3. their principal.
    const late = take(this.lateCharged - this.latePaid);
    this.latePaid += late;
    allocation.lateChargesMinor = late;
    for (const row of this.rows) {
      const part = take(row.interest - row.paidInterest);
      row.paidInterest += part;
      allocation.interestMinor += part;
    }
    for (const row of this.rows) {
      const part = take(row.principal - row.paidPrincipal);
      row.paidPrincipal += part;
      allocation.principalMinor += part;
    }
    // 4. The instalments still running: a payoff, or the next one paid ahead, then principal prepaid.
    while (rest > 0 && this.k <= this.n && !this.paidOff) {
      const accrued = Math.max(0, this.accruedInterest() - this.aheadInterest);
      if (rest >= this.balance + accrued) {
        rest -= this.payOff(receivedOn, allocation);
        break;
      }
      const interest = take(accrued);
      this.aheadInterest += interest;
      allocation.interestMinor += interest;
      // The rest of the next instalment is principal: it stops bearing interest today.
      const principalLeft = this.level - this.aheadInterest - this.aheadPrincipal;
      if (this.k < this.n && rest >= principalLeft) {
        const principal = take(principalLeft);
        allocation.advanceMinor += principal;
        this.settleAhead(receivedOn, principal);
        // Beyond the next instalment: principal prepaid, lowering the remaining payments (same end date).
        if (rest > 0 && rest < this.balance) {
          const prepaid = take(rest);
          allocation.prepaidPrincipalMinor += prepaid;
          this.balance -= prepaid;
          this.prepaid += prepaid;
          this.reamortise();
        }
      } else {
        const principal = take(rest);
        allocation.advanceMinor += principal;
        this.aheadPrincipal += principal;
        this.balance -= principal;
      }
    }
    if (rest > 0) {
      allocation.overpaymentMinor += rest;
      this.overpaid += rest;
    }
    return allocation;
  }

  /** Instalment k is paid in full before its due date: its interest ran only to today. */
  private settleAhead(on: string, principal: number): void {
    this.balance -= principal;
    this.aheadPrincipal += principal;
    this.rows.push({
      number: this.k,
      dueDate: this.dueDate(this.k),
      principal: this.aheadPrincipal,
      interest: this.aheadInterest,
      balanceAfter: this.balance,
      settledEarlyOn: on,
      paidInterest: this.aheadInterest,
      paidPrincipal: this.aheadPrincipal,
    });
    this.k += 1;
    this.exact = 0n;
    this.aheadInterest = 0;
    this.aheadPrincipal = 0;
  }

  /**
   * Pays the loan off today: interest only to today (never a full month's, and unearned interest is never
   * charged), every principal centavo; the instalments left are settled today. Returns what it took.
   */
  private payOff(on: string, allocation: Allocation): number {
    const accrued = this.accruedInterest();
    const interest = Math.max(0, accrued - this.aheadInterest);
    const taken = this.balance + interest;
    allocation.interestMinor += interest;
    // The principal left settles the running instalment, paid before its due date.
    allocation.advanceMinor += this.balance;
    this.paidOff = {
      on,
      rowCount: this.rows.length,
      k: this.k,
      exact: this.exact,
      aheadInterest: this.aheadInterest,
      aheadPrincipal: this.aheadPrincipal,
    };
    const principal = this.aheadPrincipal + this.balance;
    this.balance = 0;
    for (let j = this.k; j <= this.n; j++) {
      const first = j === this.k;
      this.rows.push({
        number: j,
        dueDate: this.dueDate(j),
        principal: first ? principal : 0,
        interest: first ? Math.max(accrued, this.aheadInterest) : 0,
        balanceAfter: 0,
        settledEarlyOn: on,
        paidInterest: first ? Math.max(accrued, this.aheadInterest) : 0,
        paidPrincipal: first ? principal : 0,
      });
    }
    this.k = this.n + 1;
    this.exact = 0n;
    this.aheadInterest = 0;
    this.aheadPrincipal = 0;
    this.level = 0;
    return taken;
  }

  // ——— the schedule as it stands ———

  /** Instalments k…n as they stand if every one is paid on its due date and nothing else happens. */
  project(): ProjectedRow[] {
    const rows: ProjectedRow[] = [];
    if (this.startDate === null || this.paidOff) return rows;
    let room = this.interestRoom();
    let bal = this.balance + this.aheadPrincipal;
    for (let j = this.k; j <= this.n; j++) {
      const exact =
        j === this.k
          ? this.exact + interestNumerator(this.balance, this.bp, this.startDate, this.clock, this.dueDate(j))
          : monthInterestNumerator(bal, this.bp);
      const interest = Math.min(toCentavos(exact), room);
      const principal = j === this.n ? bal : clamp(this.level - interest, 0, bal);
      room -= interest;
      bal -= principal;
      rows.push({
        number: j,
        dueDate: this.dueDate(j),
        principal,
        interest,
        balanceAfter: bal,
        paid: j === this.k ? this.aheadInterest + this.aheadPrincipal : 0,
      });
    }
    return rows;
  }
}

/**
 * Replays the records of one loan up to `asOf` and derives everything about it: the schedule with each
 * instalment's state, where every repayment went, what is due, overdue, accrued and needed to pay off.
 * Nothing here is stored; the same records always give the same position. See docs/decisions/010 and 035.
 */
export function deriveLoanPosition(records: LoanRecords, asOf: string): LoanPosition {
  const ordered = orderRecords(records, asOf);
  const replay = new Replay(ordered);
  const allocations = new Map<RepaymentRecord, Allocation>();

  // Each day: instalments falling due first, then payouts, then repayments in the order recorded.
  let t = 0;
  let r = 0;
  const { tranches, receipts } = ordered;
  while (t < tranches.length || r < receipts.length) {
    const tranche = tranches[t];
    const receipt = receipts[r];
    if (tranche && (!receipt || tranche.paidOn <= receipt.receivedOn)) {
      replay.addTranche(tranche.amountMinor, tranche.paidOn);
      t++;
    } else if (receipt) {
      allocations.set(receipt, replay.receive(receipt.amountMinor, receipt.receivedOn));
      r++;
    }
  }
  replay.advanceTo(asOf);

  const graceDays = ordered.rules.graceDays;
  const running = replay.k <= ordered.termMonths && replay.startDate !== null && !replay.paidOff;
  const schedule: InstalmentPosition[] = [
    ...replay.rows.map((row) =>
      instalmentPosition(
        { ...row, paid: row.paidInterest + row.paidPrincipal },
        true,
        row.settledEarlyOn,
        asOf,
        graceDays,
      ),
    ),
    ...replay.project().map((row) => instalmentPosition(row, false, null, asOf, graceDays)),
  ];
  const due = replay.rows;
  const principalDue = due.reduce((sum, row) => sum + row.principal - row.paidPrincipal, 0);
  const interestDue = due.reduce((sum, row) => sum + row.interest - row.paidInterest, 0);
  const lateDue = replay.lateCharged - replay.latePaid;
  const accrued = running ? replay.accruedInterest() : 0;
  const owedBack = Math.max(0, ordered.refundedMinor - replay.overpaid);
  const payoff =
    lateDue +
    interestDue +
    principalDue +
    (running ? replay.balance + Math.max(0, accrued - replay.aheadInterest) : 0) +
    owedBack;
  const totalInterest = schedule.reduce((sum, row) => sum + row.interestMinor, 0);
  const overdueRows = schedule.filter((row) => row.status === 'overdue');
  const next = schedule.find((row) => row.unpaidMinor > 0);

  return {
    asOf,
    startDate: replay.startDate,
    termMonths: ordered.termMonths,
    monthlyRateBp: ordered.monthlyRateBp,
    principalPaidOutMinor: replay.drawn,
    feesMinor: ordered.feesMinor,
    graceDays,
    lateChargeMonthlyBp: ordered.rules.lateChargeMonthlyBp,
    schedule,
    repayments: records.repayments.map((rec) => ({
      id: rec.id,
      amountMinor: rec.amountMinor,
      receivedOn: rec.receivedOn,
      reversedOn: ordered.reversedOn(rec),
      allocation: allocations.get(rec) ?? null,
    })),
    levelPaymentMinor: running ? replay.level : 0,
    levelFromInstalment: running && replay.level > 0 ? replay.k : null,
    outstandingPrincipalMinor: replay.balance + principalDue,
    principalDueMinor: principalDue,
    interestDueMinor: interestDue,
    interestAccruedMinor: accrued,
    lateChargesChargedMinor: replay.lateCharged,
    lateChargesDueMinor: lateDue,
    lateCharges: replay.lateCharges,
    paidAheadMinor: running ? replay.aheadInterest + replay.aheadPrincipal : 0,
    prepaidPrincipalMinor: replay.prepaid,
    overpaidMinor: replay.overpaid,
    refundedMinor: ordered.refundedMinor,
    creditMinor: Math.max(0, replay.overpaid - ordered.refundedMinor),
    totalInterestMinor: totalInterest,
    totalCostMinor: totalInterest + ordered.feesMinor + replay.lateCharged,
    payoffMinor: payoff,
    amountDueNowMinor: lateDue + interestDue + principalDue,
    nextPayment: next ? { number: next.number, dueDate: next.dueDate, amountMinor: next.unpaidMinor } : null,
    daysPastDue: overdueRows.reduce((most, row) => Math.max(most, row.daysPastDue), 0),
    overdueMinor: overdueRows.reduce((sum, row) => sum + row.unpaidMinor, 0),
  };
}

function instalmentPosition(
  row: ProjectedRow,
  fixed: boolean,
  settledEarlyOn: string | null,
  asOf: string,
  graceDays: number,
): InstalmentPosition {
  const payment = row.principal + row.interest;
  const unpaid = Math.max(0, payment - row.paid);
  const pastDue = fixed && unpaid > 0 ? Math.max(0, daysBetween(row.dueDate, asOf)) : 0;
  let status: InstalmentStatus;
  if (unpaid === 0) status = 'paid';
  else if (!fixed) status = row.paid > 0 ? 'part_paid' : 'upcoming';
  else if (pastDue > graceDays) status = 'overdue';
  else status = row.paid > 0 ? 'part_paid' : 'due';
  return {
    number: row.number,
    dueDate: row.dueDate,
    principalMinor: row.principal,
    interestMinor: row.interest,
    paymentMinor: payment,
    balanceMinor: row.balanceAfter,
    paidMinor: Math.min(row.paid, payment),
    unpaidMinor: unpaid,
    fixed,
    settledEarlyOn,
    status,
    daysPastDue: pastDue,
  };
}

/** Closure: nothing at all is owed on the loan (principal, interest, late charges) on the position's date. */
export function isNothingOwed(position: LoanPosition): boolean {
  return (
    position.principalPaidOutMinor > 0 &&
    position.payoffMinor === 0 &&
    position.schedule.every((row) => row.unpaidMinor === 0)
  );
}
