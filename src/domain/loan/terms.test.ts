import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorMessages } from '../errors';
import {
  type AmountRule,
  assertLoanProduct,
  computeFeesMinor,
  defaultLoanProduct,
  isOnRule,
  isStaffAmountAllowed,
  type LoanProduct,
  loanRequestSchema,
  parseWholeAmount,
  roundAndClamp,
  staffEditableAmountRule,
  staffLoanUpdateSchema,
  validateBorrowerAmount,
} from './terms';

const borrower = defaultLoanProduct.borrowerAmount;

describe('defaultLoanProduct', () => {
  it('has the SPEC §6 defaults and is valid', () => {
    expect(defaultLoanProduct.borrowerAmount).toEqual({ min: 10_000, max: 300_000, step: 10_000 });
    expect(defaultLoanProduct.staffAmount).toEqual({ min: 50_000, max: 2_000_000, step: 10_000 });
    expect(defaultLoanProduct.termsMonths).toEqual([6, 12, 18, 24]);
    expect(defaultLoanProduct.defaultTermMonths).toBe(6);
    expect(defaultLoanProduct.monthlyRateBp).toBe(200);
    expect(defaultLoanProduct.fees).toEqual({ flatMinor: 0, percentBp: 0 });
    expect(defaultLoanProduct.defaultCreditScore).toBe(500);
    expect(() => assertLoanProduct(defaultLoanProduct)).not.toThrow();
  });

  it('refuses configurations that cannot work', () => {
    const broken = [
      { borrowerAmount: { min: 10_000, max: 305_000, step: 10_000 } },
      { staffAmount: { min: 0, max: 100, step: 10 } },
      { termsMonths: [] },
      { defaultTermMonths: 7 },
      { monthlyRateBp: 1.5 },
      { monthlyRateBp: -1 },
      { fees: { flatMinor: -1, percentBp: 0 } },
      { fees: { flatMinor: 0, percentBp: 10_000 } },
    ];
    for (const override of broken) {
      expect(
        () => assertLoanProduct({ ...defaultLoanProduct, ...override }),
        JSON.stringify(override),
      ).toThrow();
    }
  });
});

describe('assertLoanProduct', () => {
  const failure = (override: Partial<LoanProduct>) => {
    try {
      assertLoanProduct({ ...defaultLoanProduct, ...override });
      return null;
    } catch (error) {
      return (error as Error).message.replace('Invalid loan product configuration: ', '');
    }
  };

  it('names the setting that is wrong', () => {
    const cases: [Partial<LoanProduct>, string][] = [
      [
        { borrowerAmount: { min: 10_000, max: 305_000, step: 10_000 } },
        'borrowerAmount.max must be min + k·step',
      ],
      [{ staffAmount: { min: 100, max: 50, step: 10 } }, 'staffAmount.max must be min + k·step'],
      [{ staffAmount: { min: 0, max: 100, step: 10 } }, 'staffAmount needs positive whole numbers'],
      [{ borrowerAmount: { min: 10, max: 100, step: 0.5 } }, 'borrowerAmount needs positive whole numbers'],
      [{ termsMonths: [] }, 'termsMonths'],
      [{ termsMonths: [6, 0] }, 'termsMonths'],
      [{ defaultTermMonths: 7 }, 'defaultTermMonths must be one of termsMonths'],
      [{ monthlyRateBp: 1.5 }, 'monthlyRateBp'],
      [{ monthlyRateBp: -1 }, 'monthlyRateBp'],
      [{ monthlyRateBp: 10_001 }, 'monthlyRateBp'],
      [{ fees: { flatMinor: -1, percentBp: 0 } }, 'fees.flatMinor'],
      [{ fees: { flatMinor: 0.5, percentBp: 0 } }, 'fees.flatMinor'],
      [{ fees: { flatMinor: 0, percentBp: 10_000 } }, 'fees.percentBp'],
      [{ fees: { flatMinor: 0, percentBp: -1 } }, 'fees.percentBp'],
      [{ fees: { flatMinor: 0, percentBp: 0.5 } }, 'fees.percentBp'],
    ];
    for (const [override, why] of cases) expect(failure(override), JSON.stringify(override)).toBe(why);
  });

  it('accepts the edges of each range', () => {
    expect(failure({ monthlyRateBp: 10_000 })).toBeNull();
    expect(failure({ monthlyRateBp: 0 })).toBeNull();
    expect(failure({ fees: { flatMinor: 0, percentBp: 9_999 } })).toBeNull();
    expect(failure({ borrowerAmount: { min: 5, max: 5, step: 1 } })).toBeNull();
    // Steps count from min, which need not be a multiple of the step: 5, 9, 13.
    expect(failure({ borrowerAmount: { min: 5, max: 13, step: 4 } })).toBeNull();
    expect(failure({ termsMonths: [1], defaultTermMonths: 1 })).toBeNull();
  });
});

describe('validateBorrowerAmount', () => {
  it('accepts 10,000–300,000 in steps of 10,000 only', () => {
    for (const ok of [10_000, 20_000, 150_000, 300_000])
      expect(validateBorrowerAmount(ok)).toEqual({ ok: true });
    for (const bad of [0, 9_999, 15_000, 310_000, 10_000.5, Number.NaN, -10_000]) {
      expect(validateBorrowerAmount(bad)).toEqual({ ok: false, code: 'LOAN_AMOUNT_INVALID' });
    }
  });
});

describe('roundAndClamp', () => {
  it('rounds to the nearest step, halves up, then clamps', () => {
    expect(roundAndClamp(14_999, borrower)).toBe(10_000);
    expect(roundAndClamp(15_000, borrower)).toBe(20_000);
    expect(roundAndClamp(123_456, borrower)).toBe(120_000);
    expect(roundAndClamp(0, borrower)).toBe(10_000);
    expect(roundAndClamp(-50_000, borrower)).toBe(10_000);
    expect(roundAndClamp(999_999_999, borrower)).toBe(300_000);
    expect(roundAndClamp(Number.NaN, borrower)).toBe(10_000);
    expect(roundAndClamp(Number.POSITIVE_INFINITY, borrower)).toBe(300_000);
  });

  it('counts steps from min', () => {
    const rule = { min: 5, max: 95, step: 10 };
    expect(roundAndClamp(20, rule)).toBe(25);
    expect(roundAndClamp(19, rule)).toBe(15);
  });

  const rule: fc.Arbitrary<AmountRule> = fc
    .record({
      min: fc.integer({ min: 1, max: 1e6 }),
      step: fc.integer({ min: 1, max: 1e5 }),
      steps: fc.nat(1000),
    })
    .map(({ min, step, steps }) => ({ min, step, max: min + step * steps }));

  it('is idempotent, in range and on a step, for any rule and input', () => {
    fc.assert(
      fc.property(
        rule,
        fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true })),
        (r, value) => {
          const once = roundAndClamp(value, r);
          expect(isOnRule(once, r)).toBe(true);
          expect(roundAndClamp(once, r)).toBe(once);
        },
      ),
    );
  });

  it('leaves allowed values alone and moves others to the nearest allowed one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 10_000, max: 300_000 }), (value) => {
        const snapped = roundAndClamp(value, borrower);
        expect(Math.abs(snapped - value)).toBeLessThanOrEqual(borrower.step / 2);
        if (isOnRule(value, borrower)) expect(snapped).toBe(value);
      }),
    );
  });
});

describe('parseWholeAmount', () => {
  it('reads digits with grouping', () => {
    expect(parseWholeAmount('10000')).toBe(10_000);
    expect(parseWholeAmount(' 10,000 ')).toBe(10_000);
    expect(parseWholeAmount('1 000 000')).toBe(1_000_000);
    expect(parseWholeAmount('1\u00a0000')).toBe(1_000);
    expect(parseWholeAmount('007')).toBe(7);
    expect(parseWholeAmount('១០,០០០')).toBe(10_000); // Khmer digits
    expect(parseWholeAmount('០១២៣៤៥៦៧៨៩')).toBe(123_456_789); // every Khmer digit, 9 included
    expect(parseWholeAmount('０１２３４５６７８９')).toBe(123_456_789); // every full-width digit
    expect(parseWholeAmount('１０，０００')).toBe(10_000); // full-width
  });

  it('refuses anything that is not a whole amount', () => {
    for (const bad of [
      '',
      ' ',
      ',',
      '10,000.00',
      '10.5',
      '-100',
      '+100',
      '₱10,000',
      '1e5',
      '0x10',
      'abc',
      '10,',
      ',10',
      '9007199254740993',
    ]) {
      expect(parseWholeAmount(bad), bad).toBeNull();
    }
  });

  it('round-trips integers formatted in every app locale', () => {
    const formats = ['en', 'zh', 'km'].map(
      (locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    );
    fc.assert(
      fc.property(fc.nat(Number.MAX_SAFE_INTEGER), fc.constantFrom(...formats), (value, format) => {
        expect(parseWholeAmount(format.format(value))).toBe(value);
      }),
    );
  });
});

describe('computeFeesMinor', () => {
  it('adds the flat part and the percentage, rounded half-up', () => {
    expect(computeFeesMinor(10_000_000, defaultLoanProduct.fees)).toBe(0);
    expect(computeFeesMinor(10_000_000, { flatMinor: 50_000, percentBp: 100 })).toBe(150_000);
    expect(computeFeesMinor(50, { flatMinor: 0, percentBp: 100 })).toBe(1); // 0.5 centavo rounds up
    expect(computeFeesMinor(49, { flatMinor: 0, percentBp: 100 })).toBe(0);
  });
});

describe('loanRequestSchema', () => {
  const valid = { phone: '09171234567', amount: 100_000, termMonths: 12 };
  const codesFor = (input: unknown) => {
    const result = loanRequestSchema.safeParse(input);
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts a valid request, amount as number or typed text', () => {
    expect(loanRequestSchema.parse(valid)).toEqual(valid);
    expect(loanRequestSchema.parse({ ...valid, amount: '100,000', phone: ' 09171234567 ' })).toEqual(valid);
  });

  it('reports the SPEC codes per field', () => {
    expect(codesFor({ ...valid, phone: '' })).toEqual({ phone: 'PHONE_REQUIRED' });
    expect(codesFor({ ...valid, phone: '   ' })).toEqual({ phone: 'PHONE_REQUIRED' });
    expect(codesFor({ amount: 100_000, termMonths: 12 })).toEqual({ phone: 'PHONE_REQUIRED' });
    expect(codesFor({ ...valid, phone: '0917abc' })).toEqual({ phone: 'PHONE_INVALID' });
    for (const amount of [15_000, 5_000, 310_000, '10,000.00', 'ten', null, 100_000.5]) {
      expect(codesFor({ ...valid, amount }), String(amount)).toEqual({ amount: 'LOAN_AMOUNT_INVALID' });
    }
    for (const termMonths of [7, 0, 36, '12', undefined]) {
      expect(codesFor({ ...valid, termMonths }), String(termMonths)).toEqual({
        termMonths: 'LOAN_TERM_INVALID',
      });
    }
  });

  it('accepts exactly the allowed amounts and terms', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400_000 }),
        fc.integer({ min: 0, max: 30 }),
        (amount, termMonths) => {
          const ok = loanRequestSchema.safeParse({ ...valid, amount, termMonths }).success;
          expect(ok).toBe(
            amount % 10_000 === 0 &&
              amount >= 10_000 &&
              amount <= 300_000 &&
              [6, 12, 18, 24].includes(termMonths),
          );
        },
      ),
    );
  });

  it('only emits codes the shared catalogue knows', () => {
    for (const code of ['PHONE_REQUIRED', 'PHONE_INVALID', 'LOAN_AMOUNT_INVALID', 'LOAN_TERM_INVALID']) {
      expect(Object.keys(errorMessages)).toContain(code);
    }
  });
});

describe('staffLoanUpdateSchema', () => {
  it('uses the staff range and one code for both fields', () => {
    expect(staffLoanUpdateSchema.parse({ amount: 2_000_000, termMonths: 24 })).toEqual({
      amount: 2_000_000,
      termMonths: 24,
    });
    expect(staffLoanUpdateSchema.safeParse({ amount: 50_000, termMonths: 6 }).success).toBe(true);
    const bad = staffLoanUpdateSchema.safeParse({ amount: 45_000, termMonths: 5 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual(['LOAN_UPDATE_INVALID', 'LOAN_UPDATE_INVALID']);
  });
});

describe('staff amount rule', () => {
  it('a changed amount must be in the staff range; the current amount may be kept', () => {
    expect(isStaffAmountAllowed(10_000, 10_000, defaultLoanProduct)).toBe(true);
    expect(isStaffAmountAllowed(20_000, 10_000, defaultLoanProduct)).toBe(false);
    expect(isStaffAmountAllowed(40_000, 10_000, defaultLoanProduct)).toBe(false);
    expect(isStaffAmountAllowed(50_000, 10_000, defaultLoanProduct)).toBe(true);
    expect(isStaffAmountAllowed(2_000_000, 100_000, defaultLoanProduct)).toBe(true);
    expect(isStaffAmountAllowed(2_010_000, 100_000, defaultLoanProduct)).toBe(false);
  });

  it('the schema admits the borrower range too, so a small loan can reach the use case', () => {
    expect(staffEditableAmountRule(defaultLoanProduct)).toEqual({
      min: 10_000,
      max: 2_000_000,
      step: 10_000,
    });
    expect(staffLoanUpdateSchema.safeParse({ amount: 10_000, termMonths: 12 }).success).toBe(true);
    expect(staffLoanUpdateSchema.safeParse({ amount: 5_000, termMonths: 12 }).success).toBe(false);
  });
});
