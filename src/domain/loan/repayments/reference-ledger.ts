import { addDays, addMonthsClamped, daysBetween } from '../calendar';
import { type Allocation, emptyAllocation, type LoanRecords } from './ledger';

/*
 * A second implementation of the money model (docs/decisions/035), for the tests only: written apart from
 * `ledger.ts`, in another style — it walks the loan one day at a time and keeps every amount as an exact
 * fraction (no shared day-count numerators, no spans) — so that the two agree only if the rules do. It
 * leaves out the cost caps (the tests choose loans that cannot reach them) and the projection of
 * instalments not yet due.
 */

/** An exact non-negative rational number. */
class Q {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint, d = 1n) {
    if (d === 0n) throw new Error('division by zero');
    const sign = d < 0n ? -1n : 1n;
    const g = gcd(n < 0n ? -n : n, d < 0n ? -d : d) || 1n;
    this.n = (sign * n) / g;
    this.d = (sign * d) / g;
  }
  static of(value: number | bigint): Q {
    return new Q(BigInt(value));
  }
  add(o: Q): Q {
    return new Q(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Q): Q {
    return new Q(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Q): Q {
    return new Q(this.n * o.n, this.d * o.d);
  }
  div(o: Q): Q {
    return new Q(this.n * o.d, this.d * o.n);
  }
  pow(k: number): Q {
    let out = Q.of(1);
    for (let i = 0; i < k; i++) out = out.mul(this);
    return out;
  }
  /** Half-up to a whole centavo (amounts here are never negative). */
  round(): number {
    return Number((2n * this.n + this.d) / (2n * this.d));
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** A payout after a payoff: the tests leave such histories to the replay's own tests. */
export class ReopenedLoan extends Error {}

export interface ReferenceRow {
  number: number;
  interest: number;
  principal: number;
  paid: number;
  settledEarlyOn: string | null;
}

export interface ReferencePosition {
  rows: ReferenceRow[];
  /** Principal not repaid: bearing interest, and due unpaid. */
  outstandingPrincipal: number;
  interestAccrued: number;
  lateCharged: number;
  payoff: number;
  overpaid: number;
  allocations: Map<string, Allocation>;
}

export function referencePosition(records: LoanRecords, asOf: string): ReferencePosition {
  const n = records.termMonths;
  const r = new Q(BigInt(records.monthlyRateBp), 10_000n);
  const lateRate = new Q(BigInt(records.rules?.lateChargeMonthlyBp ?? 0), 10_000n);
  const grace = records.rules?.graceDays ?? 3;
  const payouts = records.disbursements
    .map((p, i) => ({ ...p, i }))
    .filter((p) => p.paidOn <= asOf)
    .sort((a, b) => (a.paidOn === b.paidOn ? a.i - b.i : a.paidOn < b.paidOn ? -1 : 1));
  const live = records.repayments
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => p.receivedOn <= asOf && !(p.reversedOn && p.reversedOn <= asOf))
    .sort((a, b) =>
      a.p.receivedOn === b.p.receivedOn ? a.i - b.i : a.p.receivedOn < b.p.receivedOn ? -1 : 1,
    )
    .map(({ p }) => p);
  const allocations = new Map<string, Allocation>();
  const rows: (ReferenceRow & { due: string; paidInterest: number; paidPrincipal: number })[] = [];
  let start: string | null = null;
  const due = (j: number) => addMonthsClamped(start as string, j);
  /** The length of the loan month that holds `day`. */
  const monthDays = (day: string) => {
    let j = 0;
    while (due(j + 1) <= day) j++;
    return daysBetween(due(j), due(j + 1));
  };
  let k = 1;
  let bal = 0;
  let exact = Q.of(0);
  let aheadI = 0;
  let aheadP = 0;
  let level = 0;
  let overpaid = 0;
  let paidOff = false;
  let lateExact = Q.of(0);
  let latePaid = 0;
  const lateCharged = () => lateExact.round();

  const reamortise = () => {
    if (k > n) return;
    let toDue = Q.of(0);
    for (let day = day0; day < due(k); day = addDays(day, 1))
      toDue = toDue.add(new Q(1n, BigInt(monthDays(day))));
    const owed = exact.add(Q.of(bal).mul(Q.of(1).add(r.mul(toDue)))).add(Q.of(aheadP));
    const m = n - k + 1;
    level =
      r.n === 0n
        ? owed.div(Q.of(m)).round()
        : owed
            .mul(r)
            .mul(
              Q.of(1)
                .add(r)
                .pow(m - 1),
            )
            .div(Q.of(1).add(r).pow(m).sub(Q.of(1)))
            .round();
  };

  const fix = () => {
    const interest = exact.round();
    const scheduled = bal + aheadP;
    const principal = k === n ? scheduled : Math.max(0, Math.min(level - interest, scheduled));
    const ahead = aheadI + aheadP;
    const paidInterest = Math.min(ahead, interest);
    const paidPrincipal = Math.min(ahead - paidInterest, principal);
    const extra = ahead - paidInterest - paidPrincipal;
    const carried = Math.min(extra, scheduled - principal);
    overpaid += extra - carried;
    bal = scheduled - principal - carried;
    rows.push({
      number: k,
      due: due(k),
      interest,
      principal,
      paid: paidInterest + paidPrincipal,
      paidInterest,
      paidPrincipal,
      settledEarlyOn: null,
    });
    k++;
    exact = Q.of(0);
    aheadI = 0;
    aheadP = carried;
  };

  const receive = (amount: number, on: string): Allocation => {
    const a = emptyAllocation();
    let left = amount;
    const pay = (owed: number) => {
      const part = Math.max(0, Math.min(owed, left));
      left -= part;
      return part;
    };
    if (start === null) {
      overpaid += amount;
      a.overpaymentMinor = amount;
      return a;
    }
    const late = pay(lateCharged() - latePaid);
    latePaid += late;
    a.lateChargesMinor = late;
    for (const row of rows) {
      const p = pay(row.interest - row.paidInterest);
      row.paidInterest += p;
      row.paid += p;
      a.interestMinor += p;
    }
    for (const row of rows) {
      const p = pay(row.principal - row.paidPrincipal);
      row.paidPrincipal += p;
      row.paid += p;
      a.principalMinor += p;
    }
    while (left > 0 && k <= n && !paidOff) {
      const accruedSoFar = exact.round();
      const interestNow = Math.max(0, accruedSoFar - aheadI);
      if (left >= bal + interestNow) {
        // Paid off: interest to today, the principal left; later instalments are nothing.
        left -= bal + interestNow;
        a.interestMinor += interestNow;
        a.advanceMinor += bal;
        const principal = aheadP + bal;
        const interest = Math.max(accruedSoFar, aheadI);
        for (let j = k; j <= n; j++) {
          const first = j === k;
          rows.push({
            number: j,
            due: due(j),
            interest: first ? interest : 0,
            principal: first ? principal : 0,
            paid: first ? interest + principal : 0,
            paidInterest: first ? interest : 0,
            paidPrincipal: first ? principal : 0,
            settledEarlyOn: on,
          });
        }
        bal = 0;
        k = n + 1;
        aheadI = 0;
        aheadP = 0;
        exact = Q.of(0);
        paidOff = true;
        break;
      }
      const i = pay(interestNow);
      aheadI += i;
      a.interestMinor += i;
      const principalLeft = level - aheadI - aheadP;
      if (k < n && left >= principalLeft) {
        const p = pay(principalLeft);
        a.advanceMinor += p;
        bal -= p;
        aheadP += p;
        rows.push({
          number: k,
          due: due(k),
          interest: aheadI,
          principal: aheadP,
          paid: aheadI + aheadP,
          paidInterest: aheadI,
          paidPrincipal: aheadP,
          settledEarlyOn: on,
        });
        k++;
        exact = Q.of(0);
        aheadI = 0;
        aheadP = 0;
        if (left > 0 && left < bal) {
          const p2 = pay(left);
          a.prepaidPrincipalMinor += p2;
          bal -= p2;
          reamortise();
        }
      } else {
        const p = pay(left);
        a.advanceMinor += p;
        aheadP += p;
        bal -= p;
      }
    }
    if (left > 0) {
      overpaid += left;
      a.overpaymentMinor += left;
    }
    return a;
  };

  let day0 = payouts[0]?.paidOn ?? asOf;
  let nextPayout = 0;
  let nextReceipt = 0;
  // Money received before any payout is held as it is.
  while (live[nextReceipt] && live[nextReceipt]!.receivedOn < day0) {
    const rec = live[nextReceipt++]!;
    allocations.set(rec.id, receive(rec.amountMinor, rec.receivedOn));
  }
  for (; day0 <= asOf; day0 = addDays(day0, 1)) {
    const day = day0;
    if (start !== null && k <= n && !paidOff && due(k) === day) fix();
    while (payouts[nextPayout]?.paidOn === day) {
      const p = payouts[nextPayout++]!;
      // Money out again after a payoff reopens the loan in the replay; not modelled here.
      if (paidOff) throw new ReopenedLoan();
      if (start === null) start = day;
      bal += p.amountMinor;
      reamortise();
    }
    while (live[nextReceipt]?.receivedOn === day) {
      const rec = live[nextReceipt++]!;
      allocations.set(rec.id, receive(rec.amountMinor, rec.receivedOn));
    }
    if (day === asOf) break;
    // The day's interest on what bears it, and late charges on what is overdue.
    if (start !== null && k <= n && !paidOff)
      exact = exact.add(
        Q.of(bal)
          .mul(r)
          .div(Q.of(monthDays(day))),
      );
    for (const row of rows) {
      const unpaid = row.interest + row.principal - row.paid;
      if (unpaid > 0 && day >= addDays(row.due, grace))
        lateExact = lateExact.add(Q.of(unpaid).mul(lateRate).div(Q.of(31)));
    }
  }
  const dueUnpaid = rows.reduce((s, row) => s + row.interest + row.principal - row.paid, 0);
  const principalDue = rows.reduce((s, row) => s + row.principal - row.paidPrincipal, 0);
  const accrued = k <= n && !paidOff ? exact.round() : 0;
  return {
    rows: rows.map(({ number, interest, principal, paid, settledEarlyOn }) => ({
      number,
      interest,
      principal,
      paid,
      settledEarlyOn,
    })),
    outstandingPrincipal: bal + principalDue,
    interestAccrued: accrued,
    lateCharged: lateCharged(),
    payoff:
      lateCharged() - latePaid + dueUnpaid + (k <= n && !paidOff ? bal + Math.max(0, accrued - aheadI) : 0),
    overpaid,
    allocations,
  };
}
