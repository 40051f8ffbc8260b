import * as z from 'zod/mini';
import { DISCLOSURE_VERSION } from './build-disclosure';
import { feeCollections } from './loan-terms';

// Built in its own module, which has no zod: step 1 estimates with it on a borrower's first load (052).
export { buildDisclosure } from './build-disclosure';

// z.int() takes only safe integers.
const minor = z.int();
const rate = z.string().check(z.regex(/^\d+(\.\d+)?$/));
const isoDate = () => z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));

const instalmentSchema = z.strictObject({
  number: z.int().check(z.positive()),
  dueDate: isoDate(),
  paymentMinor: minor,
  principalMinor: minor,
  interestMinor: minor,
  balanceMinor: minor,
});

const v1Shape = {
  currency: z.string().check(z.minLength(1)),
  amountMinor: minor,
  termMonths: z.int().check(z.positive()),
  startDate: isoDate(),
  monthlyRate: rate,
  apr: rate,
  effectiveAnnualRate: rate,
  monthlyPaymentMinor: minor,
  totalRepayableMinor: minor,
  totalInterestMinor: minor,
  fees: z.strictObject({ flatMinor: minor, percentBp: z.int(), totalMinor: minor }),
  /** Interest plus fees: everything the loan costs beyond the amount borrowed. */
  totalCostOfCreditMinor: minor,
  schedule: z.array(instalmentSchema),
};

/**
 * Everything SPEC principle 2 asks to show before signing. Money in integer minor units, rates as exact
 * decimal strings (see rates.ts), so the snapshot holds no float and hashes the same everywhere.
 */
export const disclosureSchema = z.strictObject({
  ...v1Shape,
  version: z.literal(DISCLOSURE_VERSION),
  fees: z.strictObject({
    flatMinor: minor,
    percentBp: z.int(),
    totalMinor: minor,
    collection: z.enum(feeCollections),
  }),
  /** What the borrower receives when the whole amount is paid out: amount − fees. */
  netProceedsMinor: minor,
  lateCharge: z.strictObject({
    /** A month, of an overdue instalment's unpaid amount, as an exact decimal ("0.05" = 5 %). */
    monthlyRate: rate,
    monthlyBp: z.int(),
    /** Days after a due date before an unpaid instalment is overdue and the late charge starts. */
    graceDays: z.int(),
  }),
});
export type Disclosure = z.infer<typeof disclosureSchema>;

/** A snapshot signed before version 2: it names no late charge, grace days or fee collection. */
export const disclosureV1Schema = z.strictObject({ ...v1Shape, version: z.literal(1) });

/** Any stored snapshot, as it was signed: read, never rewritten. */
export const storedDisclosureSchema = z.union([disclosureSchema, disclosureV1Schema]);
export type StoredDisclosure = z.infer<typeof storedDisclosureSchema>;

/**
 * JSON with object keys sorted (UTF-16 order, as RFC 8785), no whitespace, arrays in order. Only strings,
 * booleans, null and safe integers are accepted, so the same value always gives the same text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw new Error(`canonicalJson accepts only safe integers, got ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  throw new Error(`canonicalJson cannot encode ${typeof value}`);
}

/**
 * The exact text the server hashes (SHA-256) and binds the signature to. Validated first, so a snapshot
 * with a missing, extra or float field is refused instead of hashed.
 */
export function canonicalDisclosureJson(disclosure: Disclosure): string {
  return canonicalJson(disclosureSchema.parse(disclosure));
}
