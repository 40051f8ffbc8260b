import type { ErrorParams } from '../../../../domain/errors';
import type { ProductTerms } from '../../../../domain/loan/products';
import { parseWholeAmount } from '../../../../domain/loan/terms';
import type { ProductTermsInput } from '../../../../domain/schemas/products';

/** What the product form holds: text as typed (pesos, percentages), checked when saved. */
export interface ProductFormValues {
  code: string;
  nameEn: string;
  nameFil: string;
  nameZh: string;
  nameKm: string;
  borrowerMin: string;
  borrowerMax: string;
  borrowerStep: string;
  staffMin: string;
  staffMax: string;
  staffStep: string;
  terms: string;
  defaultTerm: string;
  monthlyRate: string;
  feeFlat: string;
  feePercent: string;
  lateCharge: string;
  graceDays: string;
  fourEyes: string;
  firstLoanMax: string;
  repeat: boolean;
  repeatAfterLoans: string;
  repeatMaxDaysLate: string;
  repeatMax: string;
  reason: string;
}

/** A form field's error: a catalogue code and its params. */
export interface FieldProblem {
  code: string;
  params?: ErrorParams | undefined;
}

/** Whole pesos as text ("300,000"). */
const pesosText = (pesos: number) => pesos.toLocaleString('en-US');
/** Basis points as a percentage ("2.5"). */
const percentText = (bp: number) => String(bp / 100);
/** Centavos as pesos ("500" or "500.50"). */
const minorText = (minor: number) => (minor % 100 === 0 ? pesosText(minor / 100) : (minor / 100).toFixed(2));

/** An empty form for a new product. */
export const emptyProductForm: ProductFormValues = {
  code: '',
  nameEn: '',
  nameFil: '',
  nameZh: '',
  nameKm: '',
  borrowerMin: '',
  borrowerMax: '',
  borrowerStep: '',
  staffMin: '',
  staffMax: '',
  staffStep: '',
  terms: '',
  defaultTerm: '',
  monthlyRate: '',
  feeFlat: '0',
  feePercent: '0',
  lateCharge: '0',
  graceDays: '3',
  fourEyes: '',
  firstLoanMax: '',
  repeat: false,
  repeatAfterLoans: '',
  repeatMaxDaysLate: '',
  repeatMax: '',
  reason: '',
};

/** A version's terms in the form, to edit them into the next version. */
export function formValuesOf(code: string, terms: ProductTerms | ProductTermsInput): ProductFormValues {
  const repeat = terms.eligibility.repeat;
  return {
    code,
    nameEn: terms.names.en,
    nameFil: terms.names.fil,
    nameZh: terms.names.zh,
    nameKm: terms.names.km,
    borrowerMin: pesosText(terms.borrowerAmount.min),
    borrowerMax: pesosText(terms.borrowerAmount.max),
    borrowerStep: pesosText(terms.borrowerAmount.step),
    staffMin: pesosText(terms.staffAmount.min),
    staffMax: pesosText(terms.staffAmount.max),
    staffStep: pesosText(terms.staffAmount.step),
    terms: terms.termsMonths.join(', '),
    defaultTerm: String(terms.defaultTermMonths),
    monthlyRate: percentText(terms.monthlyRateBp),
    feeFlat: minorText(terms.fees.flatMinor),
    feePercent: percentText(terms.fees.percentBp),
    lateCharge: percentText(terms.lateChargeMonthlyBp),
    graceDays: String(terms.graceDays),
    fourEyes: pesosText(terms.fourEyesThresholdMinor / 100),
    firstLoanMax: pesosText(terms.eligibility.firstLoanMaxAmount),
    repeat: repeat !== null,
    repeatAfterLoans: repeat ? String(repeat.afterLoans) : '',
    repeatMaxDaysLate: repeat ? String(repeat.maxDaysLate) : '',
    repeatMax: repeat ? pesosText(repeat.maxAmount) : '',
    reason: '',
  };
}

/** A percentage with at most two decimals ("2", "2.5", "2.50%") as basis points; null otherwise. */
export function parsePercentBp(text: string): number | null {
  const match = /^\s*(\d{1,5})(?:[.,](\d{1,2}))?\s*%?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Pesos with at most two decimals ("500", "1,500.50") as centavos; null otherwise. */
export function parsePesosMinor(text: string): number | null {
  const match = /^\s*([\d,\s]+?)(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const whole = parseWholeAmount(match[1]!);
  if (whole === null) return null;
  return whole * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** "6, 12, 18" (commas or spaces) as months; null when any part is not a whole number. */
export function parseTerms(text: string): number[] | null {
  const parts = text.split(/[,\s]+/).filter(Boolean);
  if (parts.length === 0) return null;
  const months = parts.map((part) => (/^\d{1,4}$/.test(part) ? Number(part) : Number.NaN));
  return months.every(Number.isSafeInteger) ? months : null;
}

/**
 * The form as the API's terms, or every field whose text is no number. The rules between fields (ranges,
 * periods, limits) and the legal ceilings are the server's (`productIssues`), whose answer lands on the same
 * fields; the loan maths behind the ceilings stays off the back office's pages.
 */
export function readProductForm(values: ProductFormValues): {
  terms: ProductTermsInput | null;
  problems: Record<string, FieldProblem>;
} {
  const problems: Record<string, FieldProblem> = {};
  const need = <T>(value: T | null, field: string, code: string): T => {
    if (value === null && !(field in problems)) problems[field] = { code };
    return value as T;
  };
  const whole = (text: string) => parseWholeAmount(text);
  const rule = (min: string, max: string, step: string, field: string) => ({
    min: need(whole(min), field, 'PRODUCT_AMOUNT_RULE_INVALID'),
    max: need(whole(max), field, 'PRODUCT_AMOUNT_RULE_INVALID'),
    step: need(whole(step), field, 'PRODUCT_AMOUNT_RULE_INVALID'),
  });
  const termsMonths = need(parseTerms(values.terms), 'termsMonths', 'PRODUCT_TERMS_INVALID') ?? [];
  const threshold = whole(values.fourEyes);
  const terms: ProductTermsInput = {
    names: {
      en: values.nameEn.trim(),
      fil: values.nameFil.trim(),
      zh: values.nameZh.trim(),
      km: values.nameKm.trim(),
    },
    borrowerAmount: rule(values.borrowerMin, values.borrowerMax, values.borrowerStep, 'borrowerAmount'),
    staffAmount: rule(values.staffMin, values.staffMax, values.staffStep, 'staffAmount'),
    termsMonths,
    defaultTermMonths: need(
      /^\d{1,4}$/.test(values.defaultTerm.trim()) ? Number(values.defaultTerm) : null,
      'defaultTermMonths',
      'PRODUCT_DEFAULT_TERM_INVALID',
    ),
    monthlyRateBp: need(parsePercentBp(values.monthlyRate), 'monthlyRateBp', 'PRODUCT_RATE_ABOVE_CAP'),
    fees: {
      flatMinor: need(parsePesosMinor(values.feeFlat), 'fees.flatMinor', 'PRODUCT_FEE_INVALID'),
      percentBp: need(parsePercentBp(values.feePercent), 'fees.percentBp', 'PRODUCT_FEE_INVALID'),
      collection: 'deducted_from_payout',
    },
    lateChargeMonthlyBp: need(
      parsePercentBp(values.lateCharge),
      'lateChargeMonthlyBp',
      'PRODUCT_LATE_CHARGE_ABOVE_CAP',
    ),
    graceDays: need(
      /^\s*\d{1,3}\s*$/.test(values.graceDays) ? Number(values.graceDays) : null,
      'graceDays',
      'PRODUCT_GRACE_DAYS_INVALID',
    ),
    fourEyesThresholdMinor: need(
      threshold === null ? null : threshold * 100,
      'fourEyesThresholdMinor',
      'PRODUCT_THRESHOLD_INVALID',
    ),
    eligibility: {
      firstLoanMaxAmount: need(
        whole(values.firstLoanMax),
        'eligibility.firstLoanMaxAmount',
        'PRODUCT_LIMIT_INVALID',
      ),
      repeat: values.repeat
        ? {
            afterLoans: need(
              whole(values.repeatAfterLoans),
              'eligibility.repeat.afterLoans',
              'PRODUCT_REPEAT_RULE_INVALID',
            ),
            maxDaysLate: need(
              /^\s*\d{1,3}\s*$/.test(values.repeatMaxDaysLate) ? Number(values.repeatMaxDaysLate) : null,
              'eligibility.repeat.maxDaysLate',
              'PRODUCT_REPEAT_RULE_INVALID',
            ),
            maxAmount: need(whole(values.repeatMax), 'eligibility.repeat.maxAmount', 'PRODUCT_LIMIT_INVALID'),
          }
        : null,
    },
  };
  return Object.keys(problems).length > 0 ? { terms: null, problems } : { terms, problems };
}

/**
 * Which form field a server error key names: the API reports `terms.borrowerAmount.min`, the domain
 * `borrowerAmount`; the form shows one message per group.
 */
export function formFieldOf(key: string): string {
  const path = key.startsWith('terms.') ? key.slice('terms.'.length) : key;
  for (const group of ['borrowerAmount', 'staffAmount', 'termsMonths'])
    if (path === group || path.startsWith(`${group}.`)) return group;
  if (path === 'names') return 'names.en';
  if (path === 'fees') return 'fees.percentBp';
  if (path === 'eligibility') return 'eligibility.firstLoanMaxAmount';
  if (path === 'eligibility.repeat') return 'eligibility.repeat.afterLoans';
  return path;
}
