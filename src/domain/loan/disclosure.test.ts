import { beforeEach, describe, expect, it } from 'vitest';
import {
  buildDisclosure,
  canonicalDisclosureJson,
  canonicalJson,
  type Disclosure,
  disclosureSchema,
} from './disclosure';
import { scheduleTotals } from './schedule';
import { defaultLoanProduct, type LoanProduct } from './terms';

const input = {
  amountMinor: 10_000_000,
  termMonths: 12,
  product: defaultLoanProduct,
  startDate: '2025-01-31',
};

describe('buildDisclosure', () => {
  it('₱100,000 over 12 months at 2%, no fees', () => {
    const disclosure = buildDisclosure(input);
    expect(disclosure).toMatchObject({
      version: 1,
      currency: 'PHP',
      amountMinor: 10_000_000,
      termMonths: 12,
      startDate: '2025-01-31',
      monthlyRate: '0.02',
      apr: '0.24',
      effectiveAnnualRate: '0.268242',
      monthlyPaymentMinor: 945_596,
      totalRepayableMinor: 11_347_152,
      totalInterestMinor: 1_347_152,
      fees: { flatMinor: 0, percentBp: 0, totalMinor: 0 },
      totalCostOfCreditMinor: 1_347_152,
    });
    expect(disclosure.schedule).toHaveLength(12);
    expect(disclosure.schedule[0]?.dueDate).toBe('2025-02-28');
    expect(scheduleTotals(disclosure.schedule).totalRepayableMinor).toBe(disclosure.totalRepayableMinor);
    expect(disclosureSchema.parse(disclosure)).toEqual(disclosure);
  });

  it('counts configured fees in the cost and the effective rate', () => {
    const product: LoanProduct = { ...defaultLoanProduct, fees: { flatMinor: 50_000, percentBp: 100 } };
    const disclosure = buildDisclosure({ ...input, product });
    expect(disclosure.fees).toEqual({ flatMinor: 50_000, percentBp: 100, totalMinor: 150_000 });
    expect(disclosure.totalRepayableMinor).toBe(11_347_152);
    expect(disclosure.totalCostOfCreditMinor).toBe(1_347_152 + 150_000);
    expect(disclosure.effectiveAnnualRate).toBe('0.305584');
    expect(disclosure.apr).toBe('0.24');
  });

  it('refuses fees that swallow the loan', () => {
    const product: LoanProduct = { ...defaultLoanProduct, fees: { flatMinor: 10_000_000, percentBp: 0 } };
    expect(() => buildDisclosure({ ...input, product })).toThrow(/whole loan amount/);
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
      /^\{"amountMinor":10000000,"apr":"0.24","currency":"PHP","effectiveAnnualRate":"0.268242","fees":\{"flatMinor":0,/,
    );
  });

  it('changes when any term changes', () => {
    const base = canonicalDisclosureJson(disclosure);
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, termMonths: 18 }))).not.toBe(base);
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, amountMinor: 10_000_100 }))).not.toBe(base);
    expect(canonicalDisclosureJson(buildDisclosure({ ...input, startDate: '2025-02-01' }))).not.toBe(base);
  });

  it('refuses a snapshot with extra, missing or float fields', () => {
    expect(() => canonicalDisclosureJson({ ...disclosure, note: 'x' } as Disclosure)).toThrow();
    const { apr: _apr, ...missing } = disclosure;
    expect(() => canonicalDisclosureJson(missing as Disclosure)).toThrow();
    expect(() => canonicalDisclosureJson({ ...disclosure, monthlyPaymentMinor: 9455.96 })).toThrow();
  });
});
