import { z } from 'zod';
import { feeCollections } from '../loan/loan-terms';
import { PRODUCT_MAX_AMOUNT, PRODUCT_NAME_MAX, productCodePattern, productStatuses } from '../loan/products';
import { parseWholeAmount } from '../loan/terms';
import { limits } from './limits';
import { text } from './text';

/**
 * The back office's loan products (issue #31, docs/decisions/034). Each field carries its catalogue code, so
 * the admin's form shows the server's message under the field; the rules between fields (a range reached in
 * whole steps, a default term among the terms, the legal ceilings) are the domain's `productIssues`.
 */
const whole = (code: string) => z.int({ error: code }).min(0, { error: code });

const name = text({ error: 'PRODUCT_NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'PRODUCT_NAME_REQUIRED', abort: true })
  .max(PRODUCT_NAME_MAX, { error: 'PRODUCT_NAME_TOO_LONG' });

const amountRule = z.object(
  {
    min: whole('PRODUCT_AMOUNT_RULE_INVALID'),
    max: whole('PRODUCT_AMOUNT_RULE_INVALID'),
    step: whole('PRODUCT_AMOUNT_RULE_INVALID'),
  },
  { error: 'PRODUCT_AMOUNT_RULE_INVALID' },
);

export const productTermsInput = z.object(
  {
    names: z.object({ en: name, fil: name, zh: name, km: name }, { error: 'PRODUCT_NAME_REQUIRED' }),
    borrowerAmount: amountRule,
    staffAmount: amountRule,
    termsMonths: z
      .array(whole('PRODUCT_TERMS_INVALID'), { error: 'PRODUCT_TERMS_INVALID' })
      .max(24, { error: 'PRODUCT_TERMS_INVALID' }),
    defaultTermMonths: whole('PRODUCT_DEFAULT_TERM_INVALID'),
    monthlyRateBp: whole('PRODUCT_RATE_ABOVE_CAP'),
    fees: z.object(
      {
        flatMinor: whole('PRODUCT_FEE_INVALID'),
        percentBp: whole('PRODUCT_FEE_INVALID'),
        collection: z.enum(feeCollections, { error: 'PRODUCT_FEE_INVALID' }),
      },
      { error: 'PRODUCT_FEE_INVALID' },
    ),
    lateChargeMonthlyBp: whole('PRODUCT_LATE_CHARGE_ABOVE_CAP'),
    graceDays: whole('PRODUCT_GRACE_DAYS_INVALID'),
    fourEyesThresholdMinor: whole('PRODUCT_THRESHOLD_INVALID'),
    eligibility: z.object(
      {
        firstLoanMaxAmount: whole('PRODUCT_LIMIT_INVALID'),
        repeat: z
          .object(
            {
              afterLoans: whole('PRODUCT_REPEAT_RULE_INVALID'),
              maxDaysLate: whole('PRODUCT_REPEAT_RULE_INVALID'),
              maxAmount: whole('PRODUCT_LIMIT_INVALID'),
            },
            { error: 'PRODUCT_REPEAT_RULE_INVALID' },
          )
          .nullable(),
      },
      { error: 'PRODUCT_LIMIT_INVALID' },
    ),
  },
  { error: 'PRODUCT_INVALID' },
);
export type ProductTermsInput = z.infer<typeof productTermsInput>;

const optionalReason = text().trim().max(limits.reason, { error: 'FIELD_TOO_LONG' }).optional();
const requiredReason = text({ error: 'REASON_REQUIRED' })
  .trim()
  .min(1, { error: 'REASON_REQUIRED', abort: true })
  .max(limits.reason, { error: 'FIELD_TOO_LONG' });

export const createProductSchema = z.object(
  {
    code: text({ error: 'PRODUCT_CODE_INVALID' })
      .trim()
      .toLowerCase()
      .regex(productCodePattern, { error: 'PRODUCT_CODE_INVALID' }),
    terms: productTermsInput,
  },
  { error: 'PRODUCT_INVALID' },
);

/** An edit: the whole new version, and the version it was made from (a newer one meanwhile is refused). */
export const newProductVersionSchema = z.object(
  {
    basedOnVersion: z.int({ error: 'VALIDATION_FAILED' }).min(1, { error: 'VALIDATION_FAILED' }),
    terms: productTermsInput,
    reason: optionalReason,
  },
  { error: 'PRODUCT_INVALID' },
);

export const productStatusChangeSchema = z.object(
  { basedOnVersion: z.int({ error: 'VALIDATION_FAILED' }).min(1), reason: requiredReason },
  { error: 'REASON_REQUIRED' },
);

const amountRuleDto = z.object({ min: z.number(), max: z.number(), step: z.number() });

export const productTermsDto = z.object({
  names: z.object({ en: z.string(), fil: z.string(), zh: z.string(), km: z.string() }),
  borrowerAmount: amountRuleDto,
  staffAmount: amountRuleDto,
  termsMonths: z.array(z.number()),
  defaultTermMonths: z.number(),
  monthlyRateBp: z.number(),
  fees: z.object({ flatMinor: z.number(), percentBp: z.number(), collection: z.enum(feeCollections) }),
  lateChargeMonthlyBp: z.number(),
  graceDays: z.number(),
  fourEyesThresholdMinor: z.number(),
  eligibility: z.object({
    firstLoanMaxAmount: z.number(),
    repeat: z.object({ afterLoans: z.number(), maxDaysLate: z.number(), maxAmount: z.number() }).nullable(),
  }),
  status: z.enum(productStatuses),
});

export const productVersionDto = z.object({
  id: z.string(),
  version: z.number(),
  createdAt: z.string(),
  /** Who saved it; null for version 1 written from the settings at start-up. */
  createdBy: z.string().nullable(),
  /** Why it was saved (an edit's note, a retirement's reason); null for version 1. */
  reason: z.string().nullable(),
  terms: productTermsDto,
  /** Loans signed under this version. */
  loansSigned: z.number(),
});
export type ProductVersionDto = z.infer<typeof productVersionDto>;

export const productDto = z.object({
  id: z.string(),
  code: z.string(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  current: productVersionDto,
});
export type ProductDto = z.infer<typeof productDto>;

export const productListResponse = z.object({ items: z.array(productDto) });

/** One product with every version, newest first (the version history). */
export const productDetailDto = productDto.extend({ versions: z.array(productVersionDto) });
export type ProductDetailDto = z.infer<typeof productDetailDto>;

/**
 * Staff "Update Loan" / "Change Amount" (SPEC §2.7, §5): whole pesos and a term, one message for either. Which
 * amounts and terms are allowed is the loan's own product version's (its staff range and terms), checked by
 * the use case with `isStaffAmountAllowed`.
 */
export const staffAmountInput = z.preprocess(
  (value) => (typeof value === 'string' ? (parseWholeAmount(value) ?? value) : value),
  // Above any product's ceiling is never allowed; bounded here so the peso → centavo step stays exact.
  z
    .int({ error: 'LOAN_UPDATE_INVALID' })
    .positive({ error: 'LOAN_UPDATE_INVALID' })
    .max(PRODUCT_MAX_AMOUNT, { error: 'LOAN_UPDATE_INVALID' }),
);
export const staffTermInput = z
  .int({ error: 'LOAN_UPDATE_INVALID' })
  .positive({ error: 'LOAN_UPDATE_INVALID' });
