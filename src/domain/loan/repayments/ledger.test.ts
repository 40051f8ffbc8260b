import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonthsClamped, daysBetween } from '../calendar';
import { annuityPaymentMinor, buildSchedule, scheduleTotals } from '../schedule';
import {
  deriveLoanPosition,
  isNothingOwed,
  type LoanPosition,
  type LoanRecords,
  type RepaymentRecord,
} from './ledger';
import { buildStatementOfAccount } from './statement';

const peso = (n: number) => n * 100;
const single = (amountMinor: number, paidOn = '2025-01-31'): LoanRecords => ({
  termMonths: 12,
  monthlyRateBp: 200,
  disbursements: [{ amountMinor, paidOn }],
  repayments: [],
});
const paying = (records: LoanRecords, ...repayments: RepaymentRecord[]): LoanRecords => ({
  ...records,
  repayments: [...records.repayments, ...repayments],
});
const rowsOf = (position: LoanPosition) =>
  position.schedule.map(({ number, dueDate, paymentMinor, principalMinor, interestMinor, balanceMinor }) => ({
    number,
    dueDate,
    paymentMinor,
    principalMinor,
    interestMinor,
    balanceMinor,
  }));

describe('deriveLoanPosition — one payout', () => {
  it('₱100,000 over 12 months at 2 % paid out on one day is the disclosed schedule: ₱9,455.96 a month', () => {
    const position = deriveLoanPosition(single(peso(100_000)), '2025-01-31');
    const disclosed = buildSchedule({
      amountMinor: peso(100_000),
      termMonths: 12,
      monthlyRateBp: 200,
      startDate: '2025-01-31',
    });
    expect(rowsOf(position)).toEqual(
      disclosed.map(({ number, dueDate, ...rest }) => ({ number, dueDate, ...rest })),
    );
    expect(position.levelPaymentMinor).toBe(945_596);
    expect(position.levelFromInstalment).toBe(1);
    expect(position.totalInterestMinor).toBe(1_347_153);
    expect(position.schedule.every((row) => row.status === 'upcoming' && !row.fixed)).toBe(true);
    expect(position.payoffMinor).toBe(peso(100_000)); // nothing accrued on the payout day
    expect(position.nextPayment).toEqual({ number: 1, dueDate: '2025-02-28', amountMinor: 945_596 });
  });

  it('two payouts on the first day are one payout of their sum', () => {
    const split: LoanRecords = {
      ...single(peso(60_000)),
      disbursements: [
        { amountMinor: peso(60_000), paidOn: '2025-01-31' },
        { amountMinor: peso(40_000), paidOn: '2025-01-31' },
      ],
    };
    expect(rowsOf(deriveLoanPosition(split, '2025-01-31'))).toEqual(
      rowsOf(deriveLoanPosition(single(peso(100_000)), '2025-01-31')),
    );
  });

  it('matches buildSchedule for any realistic loan (₱1,000–₱5,000,000, 1–24 months, 0–6 %)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: peso(1_000), max: peso(5_000_000) }),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 3000 }),
        (amountMinor, termMonths, monthlyRateBp, day) => {
          const startDate = addDays('2024-01-01', day);
          const position = deriveLoanPosition(
            {
              termMonths,
              monthlyRateBp,
              disbursements: [{ amountMinor, paidOn: startDate }],
              repayments: [],
            },
            startDate,
          );
          const expected = buildSchedule({ amountMinor, termMonths, monthlyRateBp, startDate });
          expect(rowsOf(position)).toEqual(expected);
          expect(position.levelPaymentMinor).toBe(
            annuityPaymentMinor(amountMinor, termMonths, monthlyRateBp),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('deriveLoanPosition — a second payout re-amortises', () => {
  // ₱50,000 on Jan 31, ₱50,000 on Feb 14: the first month (Jan 31 → Feb 28) has 28 days, the second payout
  // runs 14 of them. Interest for instalment 1: 50,000 × 2 % + 50,000 × 2 % × 14/28 = ₱1,500.00. The level
  // payment repays ₱101,500 owed on Feb 28 over 12 payments: 101,500 × r(1 + r)^11 / ((1 + r)^12 − 1)
  // = ₱9,409.61 (exact fraction 8803187242051981423950000 / 9355531339374487943 centavos).
  const records: LoanRecords = {
    ...single(peso(50_000)),
    disbursements: [
      { amountMinor: peso(50_000), paidOn: '2025-01-31' },
      { amountMinor: peso(50_000), paidOn: '2025-02-14' },
    ],
  };

  it('adds the principal, charges the part month pro rata by days, keeps the due dates', () => {
    const position = deriveLoanPosition(records, '2025-02-14');
    expect(position.principalPaidOutMinor).toBe(peso(100_000));
    expect(position.levelPaymentMinor).toBe(940_961);
    expect(position.levelFromInstalment).toBe(1);
    expect(position.schedule[0]).toMatchObject({
      dueDate: '2025-02-28',
      interestMinor: 150_000,
      paymentMinor: 940_961,
    });
    expect(position.schedule[11]?.dueDate).toBe('2026-01-31');
    expect(position.schedule.reduce((sum, row) => sum + row.principalMinor, 0)).toBe(peso(100_000));
    // Less than the ₱13,471.52 of ₱100,000 paid out on Jan 31: the second half ran 14 days less.
    expect(position.totalInterestMinor).toBe(1_291_529);
    expect(position.payoffMinor).toBe(peso(100_000) + 50_000); // ₱50,000 × 2 % × 14/28 accrued
  });

  it('refuses a payout after the last due date (there is nothing left to amortise it over)', () => {
    const late = {
      ...records,
      disbursements: [...records.disbursements, { amountMinor: 100, paidOn: '2026-01-31' }],
    };
    expect(() => deriveLoanPosition(late, '2026-02-01')).toThrow(/after the last instalment/);
  });
});

describe('deriveLoanPosition — records it cannot replay', () => {
  const loan = single(peso(100_000));
  const received = { id: 'a', amountMinor: 100, receivedOn: '2025-02-28' };
  const refusals: [string, LoanRecords, string][] = [
    ['asOf', loan, "asOf must be a real 'YYYY-MM-DD' date, got 2025-02-30"],
    ['term 0', { ...loan, termMonths: 0 }, 'termMonths out of range'],
    ['term 1.5', { ...loan, termMonths: 1.5 }, 'termMonths out of range'],
    ['term 601', { ...loan, termMonths: 601 }, 'termMonths out of range'],
    ['rate −1', { ...loan, monthlyRateBp: -1 }, 'monthlyRateBp must be ≥ 0'],
    ['rate 1.5', { ...loan, monthlyRateBp: 1.5 }, 'monthlyRateBp must be ≥ 0'],
    [
      'fees 0.5',
      { ...loan, feesMinor: 0.5 },
      'feesMinor must be a safe integer number of minor units, got 0.5',
    ],
    ['fees −1', { ...loan, feesMinor: -1 }, 'feesMinor must be ≥ 0'],
    ['grace −1', { ...loan, rules: { graceDays: -1, lateChargeMonthlyBp: 0 } }, 'graceDays must be ≥ 0'],
    ['grace 1.5', { ...loan, rules: { graceDays: 1.5, lateChargeMonthlyBp: 0 } }, 'graceDays must be ≥ 0'],
    [
      'late −1',
      { ...loan, rules: { graceDays: 3, lateChargeMonthlyBp: -1 } },
      'lateChargeMonthlyBp must be ≥ 0',
    ],
    [
      'late 0.5',
      { ...loan, rules: { graceDays: 3, lateChargeMonthlyBp: 0.5 } },
      'lateChargeMonthlyBp must be ≥ 0',
    ],
    [
      'payout 0.5',
      { ...loan, disbursements: [{ amountMinor: 0.5, paidOn: '2025-01-31' }] },
      'disbursement amountMinor must be a safe integer number of minor units, got 0.5',
    ],
    [
      'payout 0',
      { ...loan, disbursements: [{ amountMinor: 0, paidOn: '2025-01-31' }] },
      'A paid disbursement must be positive',
    ],
    [
      'payout date',
      { ...loan, disbursements: [{ amountMinor: 100, paidOn: '2025-13-01' }] },
      "paidOn must be a real 'YYYY-MM-DD' date, got 2025-13-01",
    ],
    [
      'repayment 0.5',
      paying(loan, { ...received, amountMinor: 0.5 }),
      'repayment amountMinor must be a safe integer number of minor units, got 0.5',
    ],
    ['repayment 0', paying(loan, { ...received, amountMinor: 0 }), 'A repayment must be positive'],
    [
      'repayment date',
      paying(loan, { ...received, receivedOn: '2025-02-29' }),
      "receivedOn must be a real 'YYYY-MM-DD' date, got 2025-02-29",
    ],
    [
      'reversal date',
      paying(loan, { ...received, reversedOn: '28/02/2025' }),
      "reversedOn must be a real 'YYYY-MM-DD' date, got 28/02/2025",
    ],
  ];

  it.each(refusals)('%s is refused, naming what is wrong', (_, records, message) => {
    const asOf = message.startsWith('asOf') ? '2025-02-30' : '2025-03-31';
    expect(() => deriveLoanPosition(records, asOf)).toThrow(message);
  });

  it('accepts the edges: 600 months, a 0 % rate, no fees, no grace', () => {
    const edges = {
      ...loan,
      termMonths: 600,
      monthlyRateBp: 0,
      rules: { graceDays: 0, lateChargeMonthlyBp: 0 },
    };
    expect(deriveLoanPosition(edges, '2025-01-31').schedule).toHaveLength(600);
  });
});

describe('deriveLoanPosition — repayments', () => {
  const loan = single(peso(100_000));

  it('a payment on the due date pays interest, then principal', () => {
    const position = deriveLoanPosition(
      paying(loan, { id: 'a', amountMinor: 945_596, receivedOn: '2025-02-28' }),
      '2025-02-28',
    );
    expect(position.repayments[0]?.allocation).toEqual({
      lateChargesMinor: 0,
      interestMinor: 200_000,
      principalMinor: 745_596,
      advanceMinor: 0,
      prepaidPrincipalMinor: 0,
      overpaymentMinor: 0,
    });
    expect(position.schedule[0]).toMatchObject({ status: 'paid', paidMinor: 945_596, unpaidMinor: 0 });
    expect(position.outstandingPrincipalMinor).toBe(9_254_404);
  });

  it('a full instalment paid two days early settles it with interest only to that day', () => {
    // Feb 26 is 26 days into the 28-day loan month: 100,000 × 2 % × 26/28 = ₱1,857.14 of interest; the rest
    // of the ₱9,455.96, ₱7,598.82, is principal and stops bearing interest that day (issue #31).
    const records = paying(loan, { id: 'a', amountMinor: 945_596, receivedOn: '2025-02-26' });
    expect(deriveLoanPosition(records, '2025-02-26').repayments[0]?.allocation).toEqual({
      lateChargesMinor: 0,
      interestMinor: 185_714,
      principalMinor: 0,
      advanceMinor: 759_882,
      prepaidPrincipalMinor: 0,
      overpaymentMinor: 0,
    });
    const later = deriveLoanPosition(records, '2025-03-10');
    expect(later.schedule[0]).toMatchObject({
      status: 'paid',
      interestMinor: 185_714,
      principalMinor: 759_882,
      settledEarlyOn: '2025-02-26',
    });
    // Instalment 2 runs from Feb 26 on ₱92,401.18: 2 days of February (2/28 of 2 %, ₱132.00) and March
    // (₱1,848.02): ₱1,980.03. The payments stay ₱9,455.96; the interest saved lowers the last one.
    expect(later.schedule[1]).toMatchObject({
      interestMinor: 198_003,
      paymentMinor: 945_596,
      status: 'upcoming',
    });
    expect(later.daysPastDue).toBe(0);
    expect(later.totalInterestMinor).toBeLessThan(1_347_153);
  });

  it('beyond the next instalment, the rest prepays principal and lowers the remaining payments', () => {
    // On Feb 28: instalment 1 (₱9,455.96) is due and paid; instalment 2 is paid in full the day its month
    // starts, so its interest is nil; the remaining ₱10,544.04 prepays principal. Instalment 3 then runs
    // from Feb 28 to Apr 30 on ₱72,544.04 (two months, ₱2,901.76), and the ₱75,445.80 owed on Apr 30 is
    // re-amortised over instalments 3–12: 75,445.80 × r(1 + r)^9 / ((1 + r)^10 − 1) = ₱8,234.43.
    const position = deriveLoanPosition(
      paying(loan, { id: 'a', amountMinor: 945_596 + peso(20_000), receivedOn: '2025-02-28' }),
      '2025-02-28',
    );
    expect(position.repayments[0]?.allocation).toEqual({
      lateChargesMinor: 0,
      interestMinor: 200_000,
      principalMinor: 745_596,
      advanceMinor: 945_596,
      prepaidPrincipalMinor: 1_054_404,
      overpaymentMinor: 0,
    });
    expect(position.schedule[1]).toMatchObject({
      interestMinor: 0,
      principalMinor: 945_596,
      paymentMinor: 945_596,
      status: 'paid',
      settledEarlyOn: '2025-02-28',
    });
    expect(position.schedule[2]).toMatchObject({ interestMinor: 290_176, paymentMinor: 823_443 });
    expect(position.levelPaymentMinor).toBe(823_443);
    expect(position.levelFromInstalment).toBe(3);
    expect(position.schedule.slice(2, 11).every((row) => row.paymentMinor === 823_443)).toBe(true);
    expect(position.totalInterestMinor).toBeLessThan(1_347_153);
    expect(position.prepaidPrincipalMinor).toBe(1_054_404);
  });

  it('less than the next instalment pays its interest to the day, then principal that stops bearing interest', () => {
    // Feb 10: 100,000 × 2 % × 10/28 = ₱714.29 of interest, ₱285.71 of principal. On Feb 28 instalment 1's
    // interest is ₱714.29 + 99,714.29 × 2 % × 18/28 = ₱1,996.33, and ₱8,455.96 of it is still to pay.
    const records = paying(loan, { id: 'a', amountMinor: peso(1_000), receivedOn: '2025-02-10' });
    const position = deriveLoanPosition(records, '2025-02-10');
    expect(position.repayments[0]?.allocation).toMatchObject({ interestMinor: 71_429, advanceMinor: 28_571 });
    expect(position.outstandingPrincipalMinor).toBe(9_971_429);
    expect(position.schedule[0]).toMatchObject({ status: 'part_paid', unpaidMinor: 845_596 });
    expect(position.nextPayment).toEqual({ number: 1, dueDate: '2025-02-28', amountMinor: 845_596 });
    expect(deriveLoanPosition(records, '2025-02-28').schedule[0]).toMatchObject({
      status: 'part_paid',
      interestMinor: 199_633,
      principalMinor: 745_963,
      paidMinor: peso(1_000),
      unpaidMinor: 845_596,
    });
  });

  it('a reversed repayment counts as never received, from the day of the reversal', () => {
    const repayment = { id: 'a', amountMinor: 945_596, receivedOn: '2025-02-28', reversedOn: '2025-03-05' };
    const withReversal = paying(loan, repayment);
    const before = deriveLoanPosition(withReversal, '2025-03-04');
    expect(before.schedule[0]?.status).toBe('paid');
    const after = deriveLoanPosition(withReversal, '2025-03-05');
    expect(after.repayments[0]).toMatchObject({ reversedOn: '2025-03-05', allocation: null });
    expect(after.schedule[0]).toMatchObject({ status: 'overdue', daysPastDue: 5, unpaidMinor: 945_596 });
    const { repayments: _a, ...withoutList } = after;
    const { repayments: _b, ...neverPaid } = deriveLoanPosition(loan, '2025-03-05');
    expect(withoutList).toEqual(neverPaid);
  });
});

describe('deriveLoanPosition — overdue and late charges', () => {
  const loan: LoanRecords = { ...single(peso(100_000)), rules: { graceDays: 3, lateChargeMonthlyBp: 500 } };

  it('an instalment is due within the grace days and overdue after them, counted from dates', () => {
    const at = (date: string) => deriveLoanPosition(loan, date).schedule[0];
    expect(at('2025-02-27')).toMatchObject({ status: 'upcoming', daysPastDue: 0 });
    expect(at('2025-02-28')).toMatchObject({ status: 'due', daysPastDue: 0 });
    expect(at('2025-03-03')).toMatchObject({ status: 'due', daysPastDue: 3 });
    expect(at('2025-03-04')).toMatchObject({ status: 'overdue', daysPastDue: 4 });
    expect(deriveLoanPosition(loan, '2025-03-04')).toMatchObject({ daysPastDue: 4, overdueMinor: 945_596 });
  });

  it('late charges run after the grace days at 5 % a month of the unpaid scheduled amount', () => {
    // Instalment 1 (₱9,455.96, due Feb 28) is charged from Mar 3, when its grace ends; by Mar 10 that is
    // 7 days at 5 %/31 a day: 9,455.96 × 5 % × 7/31 = ₱106.76.
    const position = deriveLoanPosition(loan, '2025-03-10');
    expect(position.lateChargesChargedMinor).toBe(10_676);
    expect(position.lateChargesDueMinor).toBe(10_676);
    // A whole month (Mar 3 → Apr 3, 31 days) costs exactly 5 %: ₱472.80; a 30-day stretch less.
    expect(deriveLoanPosition(loan, '2025-04-03').lateChargesChargedMinor).toBe(47_280);
    expect(deriveLoanPosition(loan, '2025-04-02').lateChargesChargedMinor).toBe(45_755);
  });

  it('allocation order: late charges, then interest due, then principal due', () => {
    // Instalment 2 (due Mar 31) is unpaid until Apr 10, 7 days past its grace: 9,455.96 × 5 % × 7/31
    // = ₱106.76 of late charge; then its interest ₱1,850.88; the rest, ₱3,042.36, goes to its principal.
    const records = paying(
      loan,
      { id: 'a', amountMinor: 945_596, receivedOn: '2025-02-28' },
      { id: 'b', amountMinor: peso(5_000), receivedOn: '2025-04-10' },
    );
    const position = deriveLoanPosition(records, '2025-04-10');
    expect(position.repayments[1]?.allocation).toEqual({
      lateChargesMinor: 10_676,
      interestMinor: 185_088,
      principalMinor: 304_236,
      advanceMinor: 0,
      prepaidPrincipalMinor: 0,
      overpaymentMinor: 0,
    });
    expect(position.schedule[1]).toMatchObject({ status: 'overdue', daysPastDue: 10, unpaidMinor: 456_272 });
  });

  it('without a configured rate there is no late charge at all', () => {
    expect(deriveLoanPosition(single(peso(100_000)), '2025-12-31').lateChargesChargedMinor).toBe(0);
  });
});

describe('deriveLoanPosition — payoff and closure', () => {
  it('payoff = principal + interest accrued to today; paying it closes the loan', () => {
    // Feb 14 is 14 days into the 28-day loan month: 100,000 × 2 % × 14/28 = ₱1,000.00 accrued.
    const loan = single(peso(100_000));
    const position = deriveLoanPosition(loan, '2025-02-14');
    expect(position.payoffMinor).toBe(peso(101_000));
    expect(position.interestAccruedMinor).toBe(peso(1_000));
    expect(isNothingOwed(position)).toBe(false);
    const closed = paying(loan, { id: 'a', amountMinor: peso(101_000), receivedOn: '2025-02-14' });
    const after = deriveLoanPosition(closed, '2025-02-14');
    expect(after.repayments[0]?.allocation).toMatchObject({
      interestMinor: peso(1_000),
      advanceMinor: peso(100_000),
      prepaidPrincipalMinor: 0,
      overpaymentMinor: 0,
    });
    expect(after.payoffMinor).toBe(0);
    expect(isNothingOwed(after)).toBe(true);
    // It stays closed: nothing falls due or accrues afterwards.
    const later = deriveLoanPosition(closed, '2026-06-30');
    expect(isNothingOwed(later)).toBe(true);
    // The instalment it settled keeps what it paid (issue #31: a payoff erases no history).
    expect(later.schedule[0]).toMatchObject({
      interestMinor: peso(1_000),
      principalMinor: peso(100_000),
      paidMinor: peso(101_000),
      status: 'paid',
      settledEarlyOn: '2025-02-14',
    });
    expect(later.schedule.slice(1).every((row) => row.paymentMinor === 0 && row.status === 'paid')).toBe(
      true,
    );
    expect(later.totalInterestMinor).toBe(peso(1_000));
  });

  it('paying the last instalment early settles the loan with interest only to that day', () => {
    // ₱10,000 for one month at 2 %: ₱10,200 due Feb 28. Paid Feb 26: interest 10,000 × 2 % × 26/28 =
    // ₱185.71; the ₱14.29 of interest not earned is held as an overpayment to refund, not kept.
    const records: LoanRecords = {
      ...single(peso(10_000)),
      termMonths: 1,
      repayments: [{ id: 'a', amountMinor: peso(10_200), receivedOn: '2025-02-26' }],
    };
    const position = deriveLoanPosition(records, '2025-02-26');
    expect(position.repayments[0]?.allocation).toMatchObject({
      interestMinor: 18_571,
      advanceMinor: peso(10_000),
      overpaymentMinor: 1_429,
    });
    expect(isNothingOwed(position)).toBe(true);
  });

  it('more than the payoff is kept as an overpayment', () => {
    const records = paying(single(peso(100_000)), {
      id: 'a',
      amountMinor: peso(102_000),
      receivedOn: '2025-02-14',
    });
    const position = deriveLoanPosition(records, '2025-02-14');
    expect(position.repayments[0]?.allocation?.overpaymentMinor).toBe(peso(1_000));
    expect(position.overpaidMinor).toBe(peso(1_000));
    expect(isNothingOwed(position)).toBe(true);
  });

  it('a loan with nothing paid out owes nothing but is not "closed"; money received is held', () => {
    const records: LoanRecords = {
      termMonths: 6,
      monthlyRateBp: 200,
      disbursements: [],
      repayments: [{ id: 'a', amountMinor: 500, receivedOn: '2025-01-01' }],
    };
    const position = deriveLoanPosition(records, '2025-02-01');
    expect(position.schedule).toEqual([]);
    expect(position.overpaidMinor).toBe(500);
    expect(isNothingOwed(position)).toBe(false);
  });
});

describe('deriveLoanPosition — the 100 % cap', () => {
  it('stops late charges where interest + fees + late charges reach the principal paid out', () => {
    // At 6 % a month over 24 months interest is ₱91,223.xx of ₱100,000; a ₱5,000 fee leaves ₱3,7xx of room.
    const records: LoanRecords = {
      termMonths: 24,
      monthlyRateBp: 600,
      feesMinor: peso(5_000),
      disbursements: [{ amountMinor: peso(100_000), paidOn: '2025-01-31' }],
      repayments: [],
      rules: { graceDays: 0, lateChargeMonthlyBp: 500 },
    };
    const position = deriveLoanPosition(records, '2030-01-01');
    expect(position.totalCostMinor).toBe(peso(100_000));
    expect(position.lateChargesChargedMinor).toBe(peso(100_000) - peso(5_000) - position.totalInterestMinor);
  });

  it('a 7-centavo payout cannot make the loan dearer: the last instalment absorbs the rounding', () => {
    // Found by fast-check without the cap: re-amortising ₱25,503.03 + ₱0.07 (paid 29 days later) rounds
    // each month on its own and would total a centavo more than one payout of ₱25,503.10.
    const records: LoanRecords = {
      termMonths: 3,
      monthlyRateBp: 414,
      disbursements: [
        { amountMinor: 2_550_303, paidOn: '2025-01-31' },
        { amountMinor: 7, paidOn: '2025-03-01' },
      ],
      repayments: [],
    };
    const original = buildSchedule({
      amountMinor: 2_550_310,
      termMonths: 3,
      monthlyRateBp: 414,
      startDate: '2025-01-31',
    });
    const position = deriveLoanPosition(records, '2025-03-01');
    expect(position.totalInterestMinor).toBeLessThanOrEqual(scheduleTotals(original).totalInterestMinor);
    expect(position.schedule.reduce((sum, row) => sum + row.principalMinor, 0)).toBe(2_550_310);
  });

  it('caps interest itself when a (legacy, illegal) rate would exceed it', () => {
    const records: LoanRecords = { ...single(peso(100_000)), termMonths: 24, monthlyRateBp: 1_500 };
    const position = deriveLoanPosition(records, '2025-01-31');
    expect(position.totalInterestMinor).toBe(peso(100_000));
    expect(position.schedule.reduce((sum, row) => sum + row.principalMinor, 0)).toBe(peso(100_000));
  });
});

// ——— properties over arbitrary histories ———

interface Scenario {
  records: LoanRecords;
  asOf: string;
}

const scenario = (maxRateBp: number) =>
  fc
    .record({
      termMonths: fc.constantFrom(1, 2, 3, 6, 12, 18, 24),
      monthlyRateBp: fc.integer({ min: 0, max: maxRateBp }),
      startDay: fc.integer({ min: 0, max: 1200 }),
      firstMinor: fc.integer({ min: peso(1_000), max: peso(500_000) }),
      extra: fc.array(
        fc.record({
          day: fc.nat(),
          // Tiny payouts too: their rounding is where re-amortisation could cost a centavo more.
          amountMinor: fc.oneof(
            fc.integer({ min: 1, max: 5_000 }),
            fc.integer({ min: 1, max: peso(300_000) }),
          ),
        }),
        {
          maxLength: 3,
        },
      ),
      repayments: fc.array(
        fc.record({
          day: fc.integer({ min: -5, max: 900 }),
          amountMinor: fc.oneof(
            fc.integer({ min: 1, max: peso(20_000) }),
            fc.integer({ min: 1, max: peso(900_000) }),
          ),
          reversedAfter: fc.option(fc.integer({ min: 0, max: 60 }), { freq: 4 }),
        }),
        { maxLength: 8 },
      ),
      graceDays: fc.integer({ min: 0, max: 10 }),
      lateChargeMonthlyBp: fc.integer({ min: 0, max: 500 }),
      feePercent: fc.integer({ min: 0, max: 30 }),
      asOfDay: fc.integer({ min: 0, max: 1000 }),
    })
    .map((s): Scenario => {
      const start = addDays('2024-01-01', s.startDay);
      const span = daysBetween(start, addMonthsClamped(start, s.termMonths));
      return {
        asOf: addDays(start, s.asOfDay),
        records: {
          termMonths: s.termMonths,
          monthlyRateBp: s.monthlyRateBp,
          feesMinor: Math.floor((s.firstMinor * s.feePercent) / 100),
          rules: { graceDays: s.graceDays, lateChargeMonthlyBp: s.lateChargeMonthlyBp },
          disbursements: [
            { amountMinor: s.firstMinor, paidOn: start },
            ...s.extra.map((e) => ({ amountMinor: e.amountMinor, paidOn: addDays(start, e.day % span) })),
          ],
          repayments: s.repayments.map((r, index) => {
            const receivedOn = addDays(start, r.day);
            return {
              id: `r${index}`,
              amountMinor: r.amountMinor,
              receivedOn,
              reversedOn: r.reversedAfter === null ? null : addDays(receivedOn, r.reversedAfter),
            };
          }),
        },
      };
    });

/** The records as they stood on `asOf`: nothing dated later exists yet. */
const knownOn = ({ records, asOf }: Scenario): LoanRecords => ({
  ...records,
  disbursements: records.disbursements.filter((d) => d.paidOn <= asOf),
  repayments: records.repayments
    .filter((r) => r.receivedOn <= asOf)
    .map((r) => ({ ...r, reversedOn: r.reversedOn && r.reversedOn <= asOf ? r.reversedOn : null })),
});

const runs = { numRuns: 300 };

// A loaded 2-core machine runs these several times slower than a laptop.
describe('properties', { timeout: 60_000 }, () => {
  it('allocations always sum to the amount received', () => {
    fc.assert(
      fc.property(scenario(600), ({ records, asOf }) => {
        for (const applied of deriveLoanPosition(records, asOf).repayments) {
          if (applied.allocation === null) continue;
          const parts = Object.values(applied.allocation);
          expect(parts.every((part) => Number.isSafeInteger(part) && part >= 0)).toBe(true);
          expect(parts.reduce((sum, part) => sum + part, 0)).toBe(applied.amountMinor);
        }
      }),
      runs,
    );
  });

  it('nothing owed ever goes negative', () => {
    fc.assert(
      fc.property(scenario(600), ({ records, asOf }) => {
        const p = deriveLoanPosition(records, asOf);
        for (const value of [
          p.outstandingPrincipalMinor,
          p.principalDueMinor,
          p.interestDueMinor,
          p.interestAccruedMinor,
          p.lateChargesDueMinor,
          p.paidAheadMinor,
          p.payoffMinor,
          p.overdueMinor,
          p.levelPaymentMinor,
        ]) {
          expect(value).toBeGreaterThanOrEqual(0);
        }
        for (const row of p.schedule) {
          for (const value of [
            row.principalMinor,
            row.interestMinor,
            row.paidMinor,
            row.unpaidMinor,
            row.balanceMinor,
          ]) {
            expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
          }
          expect(row.paymentMinor).toBe(row.principalMinor + row.interestMinor);
          expect(row.paidMinor + row.unpaidMinor).toBe(row.paymentMinor);
        }
      }),
      runs,
    );
  });

  it('scheduled principal plus prepaid principal is exactly the principal paid out', () => {
    fc.assert(
      fc.property(scenario(600), ({ records, asOf }) => {
        const p = deriveLoanPosition(records, asOf);
        const scheduled = p.schedule.reduce((sum, row) => sum + row.principalMinor, 0);
        expect(scheduled + p.prepaidPrincipalMinor).toBe(p.principalPaidOutMinor);
        // Without repayments, the schedule alone carries all of it.
        const untouched = deriveLoanPosition({ ...records, repayments: [] }, asOf);
        expect(untouched.schedule.reduce((sum, row) => sum + row.principalMinor, 0)).toBe(
          untouched.principalPaidOutMinor,
        );
        expect(untouched.schedule.at(-1)?.balanceMinor).toBe(0);
      }),
      runs,
    );
  });

  it('re-amortisation and prepayment never cost more interest than one payout of the same principal', () => {
    fc.assert(
      fc.property(scenario(600), ({ records, asOf }) => {
        const p = deriveLoanPosition(records, asOf);
        const original = buildSchedule({
          amountMinor: p.principalPaidOutMinor,
          termMonths: records.termMonths,
          monthlyRateBp: records.monthlyRateBp,
          startDate: p.startDate as string,
        });
        expect(p.totalInterestMinor).toBeLessThanOrEqual(scheduleTotals(original).totalInterestMinor);
      }),
      runs,
    );
  });

  it('interest + fees + late charges never exceed the principal paid out, whatever is paid late or in part', () => {
    // Rates far above the legal ceiling too: the calculation enforces the cap, not only the configuration.
    fc.assert(
      fc.property(scenario(2_000), ({ records, asOf }) => {
        const p = deriveLoanPosition(records, asOf);
        expect(
          p.totalInterestMinor + (records.feesMinor ?? 0) + p.lateChargesChargedMinor,
        ).toBeLessThanOrEqual(p.principalPaidOutMinor);
        expect(p.totalCostMinor).toBeLessThanOrEqual(p.principalPaidOutMinor);
      }),
      runs,
    );
  });

  it('late charges never exceed the configured monthly rate of the overdue amount (5 % at most)', () => {
    // With nothing repaid the overdue amounts never change, so the bound is exact: each instalment is
    // charged rate × days past grace / 31, at most half a centavo of rounding on the total.
    fc.assert(
      fc.property(scenario(600), ({ records, asOf }) => {
        const p = deriveLoanPosition({ ...records, repayments: [] }, asOf);
        const bound = p.schedule
          .filter((row) => row.fixed)
          .reduce(
            (sum, row) =>
              sum +
              (row.paymentMinor * p.lateChargeMonthlyBp * Math.max(0, row.daysPastDue - p.graceDays)) /
                (10_000 * 31),
            0,
          );
        expect(p.lateChargeMonthlyBp).toBeLessThanOrEqual(500);
        expect(p.lateChargesChargedMinor).toBeLessThanOrEqual(bound + 0.5);
      }),
      runs,
    );
  });

  it('paying the payoff amount leaves nothing owed, then and later', () => {
    fc.assert(
      fc.property(scenario(600), (s) => {
        const known = knownOn(s);
        const payoff = deriveLoanPosition(known, s.asOf).payoffMinor;
        fc.pre(payoff > 0);
        const paid = paying(known, { id: 'payoff', amountMinor: payoff, receivedOn: s.asOf });
        const now = deriveLoanPosition(paid, s.asOf);
        expect(now.repayments.at(-1)?.allocation?.overpaymentMinor).toBe(0);
        expect(isNothingOwed(now)).toBe(true);
        expect(isNothingOwed(deriveLoanPosition(paid, addDays(s.asOf, 800)))).toBe(true);
      }),
      runs,
    );
  });

  it('a reversed repayment leaves the loan exactly as if it had never been received', () => {
    fc.assert(
      fc.property(scenario(600), (s) => {
        const known = knownOn(s);
        const withoutReversed = { ...known, repayments: known.repayments.filter((r) => !r.reversedOn) };
        const { repayments: _a, ...a } = deriveLoanPosition(known, s.asOf);
        const { repayments: _b, ...b } = deriveLoanPosition(withoutReversed, s.asOf);
        expect(a).toEqual(b);
      }),
      runs,
    );
  });

  it('the statement balances: its closing balance is the payoff less any credit held', () => {
    fc.assert(
      fc.property(scenario(600), ({ records, asOf }) => {
        const p = deriveLoanPosition(records, asOf);
        const statement = buildStatementOfAccount(records, asOf);
        expect(statement.closingBalanceMinor).toBe(p.payoffMinor - p.creditMinor);
        expect(statement.paidInFull).toBe(isNothingOwed(p));
      }),
      runs,
    );
  });

  it('holds every invariant when borrowers pay exact instalments, early, late, in part, or pay off', () => {
    // Amounts chosen from the loan's own figures on the day, where the edge cases live (paying exactly the
    // next instalment, one centavo short of the payoff, the payoff itself, twice on one day).
    const step = fc.record({
      days: fc.integer({ min: 0, max: 45 }),
      kind: fc.constantFrom(
        'next',
        'next-1',
        'next+1',
        'half',
        'payoff',
        'payoff-1',
        'payoff+1',
        'tiny',
        'payout',
      ),
      extra: fc.integer({ min: 1, max: peso(50_000) }),
    });
    fc.assert(
      fc.property(scenario(600), fc.array(step, { minLength: 1, maxLength: 14 }), (base, steps) => {
        const start = base.records.disbursements[0]!.paidOn;
        let records: LoanRecords = {
          ...base.records,
          disbursements: [base.records.disbursements[0]!],
          repayments: [],
        };
        let day = start;
        for (const [index, { days, kind, extra }] of steps.entries()) {
          day = addDays(day, days);
          const p = deriveLoanPosition(records, day);
          if (kind === 'payout') {
            if (day < addMonthsClamped(start, records.termMonths)) {
              records = {
                ...records,
                disbursements: [...records.disbursements, { amountMinor: extra, paidOn: day }],
              };
            }
            continue;
          }
          const next = p.nextPayment?.amountMinor ?? 0;
          const amount = {
            next,
            'next-1': next - 1,
            'next+1': next + 1,
            half: Math.floor(next / 2),
            payoff: p.payoffMinor,
            'payoff-1': p.payoffMinor - 1,
            'payoff+1': p.payoffMinor + 1,
            tiny: 1,
          }[kind];
          if (amount > 0) {
            records = paying(records, { id: `s${index}`, amountMinor: amount, receivedOn: day });
          }
        }
        for (const asOf of [day, addDays(day, 40), addDays(day, 900)]) {
          const p = deriveLoanPosition(records, asOf);
          for (const applied of p.repayments) {
            const parts = Object.values(applied.allocation ?? {});
            expect(parts.every((part) => part >= 0)).toBe(true);
            expect(parts.reduce((sum, part) => sum + part, 0)).toBe(applied.amountMinor);
          }
          for (const row of p.schedule) {
            expect(
              Math.min(
                row.principalMinor,
                row.interestMinor,
                row.paidMinor,
                row.unpaidMinor,
                row.balanceMinor,
              ),
            ).toBeGreaterThanOrEqual(0);
          }
          expect(p.payoffMinor).toBeGreaterThanOrEqual(0);
          const scheduled = p.schedule.reduce((sum, row) => sum + row.principalMinor, 0);
          expect(scheduled + p.prepaidPrincipalMinor).toBe(p.principalPaidOutMinor);
          expect(p.totalCostMinor).toBeLessThanOrEqual(p.principalPaidOutMinor);
          expect(buildStatementOfAccount(records, asOf).closingBalanceMinor).toBe(
            p.payoffMinor - p.overpaidMinor,
          );
          if (p.payoffMinor === 0) expect(isNothingOwed(p)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

// ——— against outside references (issue #31) ———

describe('Apache Fineract RP16: tranches of 5,000 + 3,000 + 2,000, 1,725 paid on each due date', () => {
  // Fineract's e2e scenario RP16 (fineract-e2e-tests-runner, LoanRepayment.feature): 12 % a year, interest
  // recalculated, declining balance; payouts on Nov 1, Jan 1 and Mar 1; 1,725 paid on Dec 1, Jan 1, Feb 1
  // and Mar 1. Its schedule charges 50.00, 33.25, 46.33 and 29.55 of interest on balances of 5,000.00,
  // 3,325.00, 4,633.25 and 2,954.58, leaving 3,259.13 after the fourth payment (docs/decisions/035).
  const rp16: LoanRecords = {
    termMonths: 6,
    monthlyRateBp: 100,
    rules: { graceDays: 0, lateChargeMonthlyBp: 0 },
    disbursements: [
      { amountMinor: 500_000, paidOn: '2022-11-01' },
      { amountMinor: 300_000, paidOn: '2023-01-01' },
      { amountMinor: 200_000, paidOn: '2023-03-01' },
    ],
    repayments: ['2022-12-01', '2023-01-01', '2023-02-01', '2023-03-01'].map((receivedOn, i) => ({
      id: `rp16-${i}`,
      amountMinor: 172_500,
      receivedOn,
    })),
  };

  it('charges the same interest on the same balances, to the centavo, through the fourth payment', () => {
    const interestOf = (asOf: string) => {
      const p = deriveLoanPosition(rp16, asOf);
      return (
        p.schedule.filter((row) => row.fixed).reduce((sum, row) => sum + row.interestMinor, 0) +
        p.interestAccruedMinor
      );
    };
    // After each payment, the principal still owed is Fineract's balance.
    expect(deriveLoanPosition(rp16, '2022-12-01').outstandingPrincipalMinor).toBe(332_500);
    expect(deriveLoanPosition(rp16, '2023-01-01').outstandingPrincipalMinor).toBe(463_325);
    expect(deriveLoanPosition(rp16, '2023-02-01').outstandingPrincipalMinor).toBe(295_458);
    expect(deriveLoanPosition(rp16, '2023-03-01').outstandingPrincipalMinor).toBe(325_913);
    // And the interest charged by each payment day is Fineract's: 50.00, +33.25, +46.33, +29.55.
    expect(interestOf('2022-12-01')).toBe(5_000);
    expect(interestOf('2023-01-01')).toBe(5_000 + 3_325);
    expect(interestOf('2023-02-01')).toBe(5_000 + 3_325 + 4_633);
    expect(interestOf('2023-03-01')).toBe(5_000 + 3_325 + 4_633 + 2_955);
  });

  it('differs only in the instalments still to come, for the reasons decision 035 gives', () => {
    // Fineract keeps its instalment of 1,725 (from the approved 10,000, rounded to whole units) and lets the
    // last take the rest: 32.59 + 15.67 of interest to come, 207.39 in all. Hiram re-spreads what is owed
    // over the instalments left after each payout, in equal payments: more principal is repaid later, so
    // 9.20 more interest is projected on the same 3,259.13.
    const p = deriveLoanPosition(rp16, '2023-03-01');
    expect(p.totalInterestMinor).toBe(20_739 + 920);
    expect(p.schedule.slice(4).map((row) => row.interestMinor)).toEqual([6_214, 2_487]);
  });
});

describe('a full instalment paid 26 days early', () => {
  // ₱100,000 over 12 months at 2 %, paid out Jan 31; instalment 1 (₱9,455.96, due Feb 28) paid on Feb 2.
  const records = paying(single(peso(100_000)), {
    id: 'early',
    amountMinor: 945_596,
    receivedOn: '2025-02-02',
  });

  it('carries interest only for the 2 days its money was owed, and the next instalment for the rest', () => {
    const p = deriveLoanPosition(records, '2025-03-31');
    // 100,000 × 2 % × 2/28 = ₱142.86; the principal ₱9,313.10 stops bearing interest on Feb 2.
    expect(p.schedule[0]).toMatchObject({
      interestMinor: 14_286,
      principalMinor: 931_310,
      status: 'paid',
      settledEarlyOn: '2025-02-02',
    });
    // Instalment 2 runs from Feb 2 on ₱90,686.90: 26/28 of a month (₱1,684.19) and March (₱1,813.74).
    expect(p.schedule[1]).toMatchObject({ interestMinor: 349_792, paymentMinor: 945_596 });
    // Paid on its due date instead, the loan costs ₱13,471.53; 26 days early it costs ₱13,215.41.
    expect(p.totalInterestMinor).toBe(1_321_541);
    const onTime = paying(single(peso(100_000)), {
      id: 'on-time',
      amountMinor: 945_596,
      receivedOn: '2025-02-28',
    });
    expect(deriveLoanPosition(onTime, '2025-03-31').totalInterestMinor).toBe(1_347_153);
  });
});

describe('the amount that brings the loan up to date (issue #32)', () => {
  it('is late charges and every instalment fallen due; paying it today leaves nothing due or overdue', () => {
    fc.assert(
      fc.property(scenario(600), (s) => {
        const known = knownOn(s);
        const p = deriveLoanPosition(known, s.asOf);
        expect(p.amountDueNowMinor).toBe(p.lateChargesDueMinor + p.interestDueMinor + p.principalDueMinor);
        fc.pre(p.amountDueNowMinor > 0);
        const paid = deriveLoanPosition(
          paying(known, { id: 'up-to-date', amountMinor: p.amountDueNowMinor, receivedOn: s.asOf }),
          s.asOf,
        );
        expect(paid.overdueMinor).toBe(0);
        expect(paid.amountDueNowMinor).toBe(0);
        expect(paid.schedule.filter((row) => row.fixed && row.unpaidMinor > 0)).toEqual([]);
      }),
      runs,
    );
  });
});
