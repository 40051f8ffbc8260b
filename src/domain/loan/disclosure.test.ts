import { beforeEach, describe, expect, it } from 'vitest';
import {
  buildDisclosure,
  canonicalDisclosureJson,
  canonicalJson,
  type Disclosure,
  disclosureSchema,
  storedDisclosureSchema,
} from './disclosure';
import { type LoanTerms, loanTermsOf } from './loan-terms';
import { defaultRepaymentRules } from './repayments/caps';
import { scheduleTotals } from './schedule';
import { defaultLoanProduct } from './terms';

const terms = loanTermsOf(defaultLoanProduct, defaultRepaymentRules);
const input = {
  amountMinor: 10_000_000,
  termMonths: 12,
  currency: 'PHP',
  terms,
  startDate: '2025-01-31',
};
const withFees = (fees: Pick<LoanTerms['fees'], 'flatMinor' | 'percentBp'>): LoanTerms => ({
  ...terms,
  fees: { ...terms.fees, ...fees },
});

describe('buildDisclosure', () => {
  it('₱100,000 over 12 months at 2%, no fees', () => {
    const disclosure = buildDisclosure(input);
    expect(disclosure).toMatchObject({
      version: 2,
      currency: 'PHP',
      amountMinor: 10_000_000,
      termMonths: 12,
      startDate: '2025-01-31',
      monthlyRate: '0.02',
      apr: '0.24',
      effectiveAnnualRate: '0.268242',
      monthlyPaymentMinor: 945_596,
      totalRepayableMinor: 11_347_153,
      totalInterestMinor: 1_347_153,
      fees: { flatMinor: 0, percentBp: 0, totalMinor: 0, collection: 'deducted_from_payout' },
      netProceedsMinor: 10_000_000,
      totalCostOfCreditMinor: 1_347_153,
      // Every charge is named (issue #31): the late charge and the grace days the loan is signed under.
      lateCharge: { monthlyRate: '0', monthlyBp: 0, graceDays: 3 },
    });
    expect(disclosure.schedule).toHaveLength(12);
    expect(disclosure.schedule[0]?.dueDate).toBe('2025-02-28');
    expect(scheduleTotals(disclosure.schedule).totalRepayableMinor).toBe(disclosure.totalRepayableMinor);
    expect(disclosureSchema.parse(disclosure)).toEqual(disclosure);
  });

  it('counts configured fees in the cost and the effective rate', () => {
    const disclosure = buildDisclosure({ ...input, terms: withFees({ flatMinor: 50_000, percentBp: 100 }) });
    expect(disclosure.fees).toEqual({
      flatMinor: 50_000,
      percentBp: 100,
      totalMinor: 150_000,
      collection: 'deducted_from_payout',
    });
    expect(disclosure.netProceedsMinor).toBe(10_000_000 - 150_000);
    expect(disclosure.totalRepayableMinor).toBe(11_347_153);
    expect(disclosure.totalCostOfCreditMinor).toBe(1_347_153 + 150_000);
    expect(disclosure.effectiveAnnualRate).toBe('0.305584');
    expect(disclosure.apr).toBe('0.24');
  });

  it('refuses fees that swallow the loan', () => {
    const swallowing = withFees({ flatMinor: 10_000_000, percentBp: 0 });
    expect(() => buildDisclosure({ ...input, terms: swallowing })).toThrow(/whole loan amount/);
  });

  it('names the late charge as an exact rate with the grace days', () => {
    const late = buildDisclosure({ ...input, terms: { ...terms, lateChargeMonthlyBp: 500, graceDays: 5 } });
    expect(late.lateCharge).toEqual({ monthlyRate: '0.05', monthlyBp: 500, graceDays: 5 });
  });

  it('a snapshot signed before version 2 still reads as it was signed', () => {
    const { fees, netProceedsMinor: _net, lateCharge: _late, ...rest } = buildDisclosure(input);
    const v1 = { ...rest, version: 1, fees: { flatMinor: 0, percentBp: 0, totalMinor: fees.totalMinor } };
    expect(storedDisclosureSchema.parse(v1)).toEqual(v1);
    expect(disclosureSchema.safeParse(v1).success).toBe(false);
  });

  it('contains no floats anywhere', () => {
    const walk = (value: unknown): void => {
      if (typeof value === 'number') expect(Number.isSafeInteger(value)).toBe(true);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(buildDisclosure({ ...input, amountMinor: 30_000_000, termMonths: 24 }));
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, true] })).toBe(
      '{"a":[{"c":null,"d":"x"},true],"b":1}',
    );
  });

  it('refuses values with no single encoding', () => {
    for (const bad of [0.5, Number.NaN, 2 ** 60, undefined, () => 1, 1n]) {
      expect(() => canonicalJson({ x: bad })).toThrow();
    }
  });
});

describe('canonicalDisclosureJson', () => {
  // Built inside each test, not while collecting: code run at collection time counts as "static" for
  // mutation testing, and every static mutant reruns the whole domain suite.
  let disclosure: Disclosure;
  beforeEach(() => {
    disclosure = buildDisclosure(input);
  });

  it('is the same text whatever order the keys were built in', () => {
    const reversed = Object.fromEntries(Object.entries(disclosure).reverse()) as Disclosure;
    expect(canonicalDisclosureJson(reversed)).toBe(canonicalDisclosureJson(disclosure));
    expect(JSON.parse(canonicalDisclosureJson(disclosure))).toEqual(disclosure);
    expect(canonicalDisclosureJson(disclosure)).toMatch(
      /^\{"amountMinor":10000000,"apr":"0.24","currency":"PHP","effectiveAnnualRate":"0.268242","fees":\{"collection":"deducted_from_payout","flatMinor":0,/,
    );
  });

  it('changes when any term changes', () => {
    const base = canonicalDisclosureJson(disclosure);
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, termMonths: 18 }))).not.toBe(base);
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, amountMinor: 10_000_100 }))).not.toBe(base);
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, startDate: '2025-02-01' }))).not.toBe(base);
    const lateTerms = { ...terms, lateChargeMonthlyBp: 100 };
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, terms: lateTerms }))).not.toBe(base);
  });

  it('refuses a snapshot with extra, missing or float fields', () => {
    expect(() => canonicalDisclosureJson({ ...disclosure, note: 'x' } as Disclosure)).toThrow();
    const { apr: _apr, ...missing } = disclosure;
    expect(() => canonicalDisclosureJson(missing as Disclosure)).toThrow();
    expect(() => canonicalDisclosureJson({ ...disclosure, monthlyPaymentMinor: 9455.96 })).toThrow();
  });
});
