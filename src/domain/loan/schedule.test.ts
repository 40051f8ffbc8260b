import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annuityPaymentMinor, buildSchedule, type Instalment, scheduleTotals } from './schedule';
import { defaultLoanProduct } from './terms';

const rateBp = defaultLoanProduct.monthlyRateBp;
const pesos = (n: number) => n * 100;

/** The SPEC formula in plain floats, as an independent oracle (in centavos, unrounded). */
const formulaPayment = (amountMinor: number, n: number, bp: number) => {
  const r = bp / 10_000;
  return r === 0 ? amountMinor / n : (amountMinor * r) / (1 - (1 + r) ** -n);
};

describe('annuityPaymentMinor', () => {
  // Checked against a 60-digit decimal evaluation of P·r / (1 − (1 + r)^−n).
  it.each([
    { amount: 100_000, n: 12, expected: 945_596 },
    { amount: 10_000, n: 6, expected: 178_526 },
    { amount: 300_000, n: 24, expected: 1_586_133 },
    { amount: 50_000, n: 18, expected: 333_511 },
    { amount: 2_000_000, n: 24, expected: 10_574_219 },
    { amount: 10_000, n: 24, expected: 52_871 },
    { amount: 150_000, n: 6, expected: 2_677_887 },
  ])('₱$amount over $n months at 200 bp → $expected centavos', ({ amount, n, expected }) => {
    expect(annuityPaymentMinor(pesos(amount), n, rateBp)).toBe(expected);
  });

  it('rounds exact halves up', () => {
    expect(annuityPaymentMinor(25, 1, 200)).toBe(26); // 25 × 1.02 = 25.5
    expect(annuityPaymentMinor(3, 2, 0)).toBe(2); // 1.5
    expect(annuityPaymentMinor(5, 2, 0)).toBe(3); // 2.5 (half-even would give 2)
    expect(annuityPaymentMinor(7, 3, 0)).toBe(2); // 2.33…
  });

  it('rejects invalid input', () => {
    expect(() => annuityPaymentMinor(0, 12, 200)).toThrow();
    expect(() => annuityPaymentMinor(100.5, 12, 200)).toThrow();
    expect(() => annuityPaymentMinor(100, 0, 200)).toThrow();
    expect(() => annuityPaymentMinor(100, 12, -1)).toThrow();
    expect(() => annuityPaymentMinor(100, 601, 200)).toThrow();
  });

  it('says which input is wrong, and accepts the edges of the ranges', () => {
    expect(() => annuityPaymentMinor(0, 12, 200)).toThrow('amountMinor must be positive');
    expect(() => annuityPaymentMinor(100.5, 12, 200)).toThrow(/^amountMinor must be a safe integer/);
    const badTerm = 'termMonths must be a whole number from 1 to 600';
    for (const term of [0, -1, 1.5, 601, Number.NaN]) {
      expect(() => annuityPaymentMinor(100, term, 200)).toThrow(badTerm);
    }
    for (const rate of [-1, 1.5, Number.NaN]) {
      expect(() => annuityPaymentMinor(100, 12, rate)).toThrow('monthlyRateBp must be ≥ 0');
    }
    expect(annuityPaymentMinor(600_000, 600, 0)).toBe(1_000);
    expect(annuityPaymentMinor(100, 1, 0)).toBe(100);
    // A payment beyond the safe-integer range is refused rather than rounded through a float.
    expect(() => annuityPaymentMinor(Number.MAX_SAFE_INTEGER, 1, 200)).toThrow(/^monthly payment must be/);
  });

  // Float noise in the oracle is below 0.002 centavo for these inputs (worst: 1 − (1 + r)^−n for tiny n·r).
  it('is within half a centavo of the float formula', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500_000_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        (p, n, bp) => {
          expect(Math.abs(annuityPaymentMinor(p, n, bp) - formulaPayment(p, n, bp))).toBeLessThanOrEqual(
            0.502,
          );
        },
      ),
    );
  });
});

describe('buildSchedule', () => {
  it('₱100,000 over 12 months at 2%: eleven payments of ₱9,455.96 and a last one of ₱9,455.97', () => {
    const schedule = buildSchedule({
      amountMinor: pesos(100_000),
      termMonths: 12,
      monthlyRateBp: 200,
      startDate: '2025-01-31',
    });
    expect(schedule).toHaveLength(12);
    expect(schedule[0]).toEqual({
      number: 1,
      dueDate: '2025-02-28',
      paymentMinor: 945_596,
      principalMinor: 745_596,
      interestMinor: 200_000,
      balanceMinor: 9_254_404,
    });
    expect(schedule[10]).toMatchObject({
      dueDate: '2025-12-31',
      principalMinor: 908_877,
      interestMinor: 36_719,
      balanceMinor: 927_056,
    });
    // Last: repays the 9,270.56 left with the rate × that balance, 185.41 (issue #31: never a remainder);
    // the centavo of rounding residue shows in its payment.
    expect(schedule[11]).toEqual({
      number: 12,
      dueDate: '2026-01-31',
      paymentMinor: 945_597,
      principalMinor: 927_056,
      interestMinor: 18_541,
      balanceMinor: 0,
    });
    expect(scheduleTotals(schedule)).toEqual({
      totalRepayableMinor: 11_347_153,
      totalInterestMinor: 1_347_153,
      totalPrincipalMinor: 10_000_000,
    });
  });

  it('at 0% the last instalment is just the balance', () => {
    const schedule = buildSchedule({
      amountMinor: 1_000_000,
      termMonths: 3,
      monthlyRateBp: 0,
      startDate: '2025-01-01',
    });
    expect(schedule.map((row) => row.paymentMinor)).toEqual([333_333, 333_333, 333_334]);
    expect(schedule.every((row) => row.interestMinor === 0)).toBe(true);
    const roundedUp = buildSchedule({
      amountMinor: 11,
      termMonths: 3,
      monthlyRateBp: 0,
      startDate: '2025-01-01',
    });
    expect(roundedUp.map((row) => row.paymentMinor)).toEqual([4, 4, 3]);
  });

  /** Invariants that hold for every input, however small. */
  const checkAlwaysValid = (schedule: Instalment[], amountMinor: number, n: number, startDate: string) => {
    expect(schedule).toHaveLength(n);
    const totals = scheduleTotals(schedule);
    expect(totals.totalPrincipalMinor).toBe(amountMinor);
    expect(totals.totalRepayableMinor).toBe(totals.totalPrincipalMinor + totals.totalInterestMinor);
    let previous = amountMinor;
    schedule.forEach((row, index) => {
      expect(row.number).toBe(index + 1);
      expect(row.principalMinor).toBeGreaterThanOrEqual(0);
      expect(row.interestMinor).toBeGreaterThanOrEqual(0);
      expect(row.paymentMinor).toBe(row.principalMinor + row.interestMinor);
      expect(row.balanceMinor).toBe(previous - row.principalMinor);
      expect(row.balanceMinor).toBeGreaterThanOrEqual(0);
      expect(row.dueDate > (schedule[index - 1]?.dueDate ?? startDate)).toBe(true);
      for (const value of Object.values(row))
        if (typeof value === 'number') expect(Number.isSafeInteger(value)).toBe(true);
      previous = row.balanceMinor;
    });
    expect(previous).toBe(0);
  };

  /** Invariants for realistic loans (≥ ₱1,000, up to 60 months). */
  const checkRealistic = (schedule: Instalment[], amountMinor: number, n: number, bp: number) => {
    const payment = annuityPaymentMinor(amountMinor, n, bp);
    expect(Math.abs(payment - formulaPayment(amountMinor, n, bp))).toBeLessThanOrEqual(1);
    let previous = amountMinor;
    for (const row of schedule) {
      expect(row.balanceMinor).toBeLessThan(previous); // strictly decreasing
      previous = row.balanceMinor;
      if (row.number < n) expect(row.paymentMinor).toBe(payment);
      // Every instalment, the last too: round-half-up(opening balance × bp / 10,000), in integers, which
      // floats hold exactly here.
      const before = row.balanceMinor + row.principalMinor;
      expect(row.interestMinor).toBe(Math.floor((2 * before * bp + 10_000) / 20_000));
    }
    // The rounding residue goes to the last payment. Each month's rounding (≤ ½ centavo in the payment,
    // ≤ ½ in the interest) compounds at r, so it stays within ((1 + r)^n − 1) / r centavos of the level.
    const last = schedule[n - 1]!;
    const r = bp / 10_000;
    const drift = r === 0 ? n : ((1 + r) ** n - 1) / r;
    expect(Math.abs(last.paymentMinor - payment)).toBeLessThanOrEqual(drift + 1);
  };

  it('product loans (borrower and staff ranges, product terms): n − 1 level payments, the residue in the last', () => {
    const amount = fc
      .oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 5, max: 200 }))
      .map((k) => pesos(k * 10_000));
    fc.assert(
      fc.property(amount, fc.constantFrom(...defaultLoanProduct.termsMonths), (amountMinor, n) => {
        const startDate = '2025-03-31';
        const schedule = buildSchedule({ amountMinor, termMonths: n, monthlyRateBp: rateBp, startDate });
        checkAlwaysValid(schedule, amountMinor, n, startDate);
        checkRealistic(schedule, amountMinor, n, rateBp);
        const payment = annuityPaymentMinor(amountMinor, n, rateBp);
        expect(schedule.slice(0, -1).every((row) => row.paymentMinor === payment)).toBe(true);
        const totals = scheduleTotals(schedule);
        const last = schedule[n - 1]!.paymentMinor;
        expect(totals.totalRepayableMinor).toBe(payment * (n - 1) + last);
        expect(totals.totalInterestMinor).toBe(totals.totalRepayableMinor - amountMinor);
      }),
    );
  });

  it('any amount ₱1,000–₱5,000,000 (to the centavo) over 1–60 months at 0–10%', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: pesos(1_000), max: pesos(5_000_000) }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        (amountMinor, n, bp) => {
          const startDate = '2024-02-29';
          const schedule = buildSchedule({ amountMinor, termMonths: n, monthlyRateBp: bp, startDate });
          checkAlwaysValid(schedule, amountMinor, n, startDate);
          checkRealistic(schedule, amountMinor, n, bp);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stays valid for amounts far below any product (down to one centavo)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 1000 }),
        (amountMinor, n, bp) => {
          const schedule = buildSchedule({
            amountMinor,
            termMonths: n,
            monthlyRateBp: bp,
            startDate: '2025-12-31',
          });
          checkAlwaysValid(schedule, amountMinor, n, '2025-12-31');
        },
      ),
    );
  });

  it('a last instalment above the level payment when the residue is positive (₱1,000 over 60 months)', () => {
    // Found by search: here the balance before the last instalment exceeds the annuity payment.
    const amountMinor = findNegativeRemainderCase();
    const schedule = buildSchedule({
      amountMinor,
      termMonths: 60,
      monthlyRateBp: 200,
      startDate: '2025-01-01',
    });
    checkAlwaysValid(schedule, amountMinor, 60, '2025-01-01');
    const last = schedule[59]!;
    expect(last.paymentMinor).toBeGreaterThan(annuityPaymentMinor(amountMinor, 60, 200));
    expect(last.interestMinor).toBe(Math.round((last.principalMinor * 200) / 10_000));
  });

  it('the last instalment charges the rate on its balance even when that balance is the level payment', () => {
    // Found by search (₱1,001.61 over 60 months at 2 %): the balance before the last instalment equals the
    // payment; its interest is still round(balance × r) = 58 centavos (issue #31), shown in its payment.
    const schedule = buildSchedule({
      amountMinor: 100_161,
      termMonths: 60,
      monthlyRateBp: 200,
      startDate: '2025-01-01',
    });
    checkAlwaysValid(schedule, 100_161, 60, '2025-01-01');
    expect(schedule[59]).toMatchObject({ paymentMinor: 2_939, principalMinor: 2_881, interestMinor: 58 });
    expect(annuityPaymentMinor(100_161, 60, 200)).toBe(2_881);
  });

  it('once a rounded-up payment has repaid everything, later instalments charge nothing', () => {
    // One centavo over 2 months at 0.01 %: the payment rounds up to the whole centavo, repaid at once.
    const schedule = buildSchedule({
      amountMinor: 1,
      termMonths: 2,
      monthlyRateBp: 1,
      startDate: '2025-01-01',
    });
    expect(
      schedule.map((row) => [row.paymentMinor, row.principalMinor, row.interestMinor, row.balanceMinor]),
    ).toEqual([
      [1, 1, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(scheduleTotals(schedule)).toEqual({
      totalRepayableMinor: 1,
      totalInterestMinor: 0,
      totalPrincipalMinor: 1,
    });
  });
});

function findNegativeRemainderCase(): number {
  for (let amountMinor = 100_000; amountMinor < 120_000; amountMinor++) {
    const schedule = buildSchedule({
      amountMinor,
      termMonths: 60,
      monthlyRateBp: 200,
      startDate: '2025-01-01',
    });
    const beforeLast = schedule[58]!.balanceMinor;
    if (beforeLast > annuityPaymentMinor(amountMinor, 60, 200)) return amountMinor;
  }
  throw new Error('no case found');
}
