import { z } from 'zod';
import { loanStatuses } from '../loan/status';
import { parseWholeAmount } from '../loan/terms';
import { canonicalPhoneOrSame } from '../phone';
import { type ApplicationInfoField, contactRelations } from './application-fields';
import { phonePattern } from './auth';
import { text } from './text';

export {
  type ApplicationFileField,
  type ApplicationSection,
  applicationFileFields,
  applicationInfoFields,
  applicationSections,
  contactRelations,
} from './application-fields';

const field = (max: number) =>
  text({ error: 'FIELD_REQUIRED' })
    .trim()
    .min(1, { error: 'FIELD_REQUIRED', abort: true })
    .max(max, { error: 'FIELD_TOO_LONG' });

const digits = (maxLength: number) => field(maxLength).regex(/^\d+$/, { error: 'FIELD_DIGITS_ONLY' });

/**
 * A Philippine mobile number written any common way ("+63 917 123 4567", "0917-123-4567"), kept in its one
 * form (src/domain/phone.ts, issue #32); anything else is refused as before: not digits, or not a mobile.
 */
const phoneDigits = () =>
  z.preprocess(
    (value) => (typeof value === 'string' ? canonicalPhoneOrSame(value) : value),
    digits(15).regex(phonePattern, { error: 'PHONE_INVALID' }),
  );

/**
 * Whole pesos, typed by the same rule as every amount (`parseWholeAmount`: grouping commas or spaces, local
 * digits), then kept as plain digits; at most ten digits, so minor units stay far inside the safe range.
 */
const pesoDigits = () =>
  z.preprocess(
    (value) => (typeof value === 'string' ? (parseWholeAmount(value)?.toString() ?? value) : value),
    digits(10),
  );

/** The text fields of step 2 (pictures and the signature travel as files beside them). */
export const applicationInfoSchema = z.object(
  {
    fullName: field(100),
    idNumber: field(50),
    companyName: field(120),
    position: field(80),
    phone: phoneDigits(),
    income: pesoDigits(),
    monthlyExpense: pesoDigits(),
    address: field(300),
    email: text()
      .trim()
      .max(254, { error: 'EMAIL_INVALID' })
      .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'EMAIL_INVALID' })
      .optional()
      .default(''),
    contactName: field(100),
    contactPhone: phoneDigits(),
    contactAddress: field(300),
    contactRelation: z.enum(contactRelations, { error: 'FIELD_REQUIRED' }),
    bankName: field(80),
    accountNumber: digits(34),
  },
  { error: 'SECTIONS_INCOMPLETE' },
);
export type ApplicationInfo = z.infer<typeof applicationInfoSchema>;

// The zod-free list in application-fields.ts names exactly this schema's fields (a compile-time check;
// application.test.ts checks the order).
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const infoFieldsMatch: SameKeys<keyof ApplicationInfo, ApplicationInfoField> = true;
void infoFieldsMatch;

/** The borrower's own application as the API returns it (money in minor units). */
export const myApplicationDto = z.object({
  id: z.string(),
  loanNumber: z.string(),
  status: z.enum(loanStatuses),
  statusMessage: z.string().nullable(),
  rejectReason: z.string().nullable(),
  fullName: z.string(),
  phone: z.string(),
  amountMinor: z.number(),
  approvedAmountMinor: z.number().nullable(),
  termMonths: z.number(),
  monthlyRateBp: z.number(),
  monthlyPaymentMinor: z.number(),
  creditScore: z.number().nullable(),
  bankName: z.string(),
  accountNumberLast4: z.string(),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
  disclosure: z.record(z.string(), z.unknown()),
  disclosureSha256: z.string(),
});
export type MyApplicationDto = z.infer<typeof myApplicationDto>;

export const myApplicationResponse = z.object({
  application: myApplicationDto.nullable(),
  canApply: z.boolean(),
});
export type MyApplicationResponse = z.infer<typeof myApplicationResponse>;
