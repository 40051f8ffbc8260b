import { z } from 'zod';
import { languages } from '../languages';
import { loanStatuses } from '../loan/status';
import { canonicalMobilePattern, canonicalPhoneOrSame, phoneSearchTerm } from '../phone';
import { roles } from '../roles';
import { civilDate } from './dates';
import { limits } from './limits';
import { text } from './text';

export const PAGE_SIZE = 10;

/**
 * A phone search box: part of a number written any way ("+63 917", "0917-123"), searched as digits of the
 * stored form (src/domain/phone.ts, issue #32).
 */
const phoneSearch = text()
  .overwrite(phoneSearchTerm)
  .max(15)
  .regex(/^\d*$/, { error: 'FIELD_DIGITS_ONLY' })
  .optional()
  .default('');

/** Search and paging for back-office lists: trimmed text; an empty search matches everything. */
export const listQuerySchema = z.object({
  page: z.coerce.number({ error: 'VALIDATION_FAILED' }).int().min(1).max(1_000_000).default(1),
  name: text().trim().max(limits.searchName).optional().default(''),
  phone: phoneSearch,
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export const applicationListItem = z.object({
  id: z.string(),
  loanNumber: z.string(),
  fullName: z.string(),
  phone: z.string(),
  amountMinor: z.number(),
  approvedAmountMinor: z.number().nullable(),
  termMonths: z.number(),
  monthlyPaymentMinor: z.number(),
  status: z.enum(loanStatuses),
  submittedAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  creditScore: z.number().nullable(),
  /** Four-eyes (docs/decisions/018): who approved first, while a second approval is awaited. */
  firstApprovedBy: z.string().nullable(),
  firstApprovedAt: z.string().nullable(),
  /** A change to the terms waits for the borrower's acceptance. */
  termsChangePending: z.boolean(),
});
export type ApplicationListItem = z.infer<typeof applicationListItem>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number(),
    pageSize: z.number(),
    /** Exact when `totalCapped` is false; else at least this many (counting stops 1,000 rows past the page). */
    total: z.number(),
    totalCapped: z.boolean(),
    pageCount: z.number(),
  });

export const applicationPage = pageOf(applicationListItem);

export const applicationProfile = applicationListItem.extend({
  borrowerId: z.string(),
  idNumber: z.string(),
  companyName: z.string(),
  position: z.string(),
  incomeMinor: z.number(),
  monthlyExpenseMinor: z.number(),
  address: z.string(),
  email: z.string().nullable(),
  contactName: z.string(),
  contactPhone: z.string(),
  contactAddress: z.string(),
  contactRelation: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  monthlyRateBp: z.number(),
  statusMessage: z.string().nullable(),
  rejectReason: z.string().nullable(),
  withdrawnMinor: z.number(),
  availableMinor: z.number(),
  documents: z.object({ idFront: z.string(), idBack: z.string(), selfie: z.string(), signature: z.string() }),
  disclosure: z.record(z.string(), z.unknown()),
  disclosureSha256: z.string(),
  /**
   * The product version whose rules govern staff changes and four-eyes for this loan (docs/decisions/034): the
   * one it was signed under, or — `signedUnder` false — the default product's first version for a loan signed
   * before products existed. Amount rules in whole pesos.
   */
  product: z.object({
    code: z.string(),
    version: z.number(),
    names: z.object({ en: z.string(), fil: z.string(), zh: z.string(), km: z.string() }),
    signedUnder: z.boolean(),
    borrowerAmount: z.object({ min: z.number(), max: z.number(), step: z.number() }),
    staffAmount: z.object({ min: z.number(), max: z.number(), step: z.number() }),
    termsMonths: z.array(z.number()),
    fourEyesThresholdMinor: z.number(),
  }),
  /** The change waiting for the borrower, if any (docs/decisions/018). */
  proposedTerms: z
    .object({
      amountMinor: z.number(),
      termMonths: z.number(),
      monthlyPaymentMinor: z.number(),
      reason: z.string().nullable(),
      proposedAt: z.string(),
    })
    .nullable(),
});
export type ApplicationProfile = z.infer<typeof applicationProfile>;

const reason = text({ error: 'REASON_REQUIRED' })
  .trim()
  .min(1, { error: 'REASON_REQUIRED', abort: true })
  .max(limits.reason, { error: 'FIELD_TOO_LONG' });

export const creditScoreSchema = z.coerce
  .number({ error: 'CREDIT_SCORE_INVALID' })
  .int({ error: 'CREDIT_SCORE_INVALID' })
  .min(limits.creditScore.min, { error: 'CREDIT_SCORE_INVALID' })
  .max(limits.creditScore.max, { error: 'CREDIT_SCORE_INVALID' });

export const approveSchema = z.object({ creditScore: creditScoreSchema.default(limits.creditScore.default) });
export const rejectSchema = z.object({ reason }, { error: 'REASON_REQUIRED' });
export const reasonSchema = reason;

export const dashboardSummary = z.object({
  registeredToday: z.number(),
  registeredTotal: z.number(),
  minLoanTodayMinor: z.number().nullable(),
  maxLoanTodayMinor: z.number().nullable(),
  disbursedTodayMinor: z.number(),
  approvedLoans: z.number(),
  pendingLoans: z.number(),
  rejectedLoans: z.number(),
  avgLoanMinor: z.number().nullable(),
  totalLoans: z.number(),
  /** Complaints not yet resolved (issue #14). */
  openComplaints: z.number(),
  /** Median time from filing to resolution over every resolved complaint, in seconds; null before any. */
  medianResolveSeconds: z.number().nullable(),
  timeZone: z.string(),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;

// ---- Loan servicing (SPEC §2.7): every action carries a required reason.

export const servicingItem = z.object({
  id: z.string(),
  loanNumber: z.string(),
  fullName: z.string(),
  phone: z.string(),
  approvedAmountMinor: z.number(),
  creditScore: z.number().nullable(),
  decidedAt: z.string().nullable(),
  availableMinor: z.number(),
  status: z.enum(loanStatuses),
  statusMessage: z.string().nullable(),
  /** A change to the terms waits for the borrower's acceptance. */
  termsChangePending: z.boolean(),
});
export type ServicingItem = z.infer<typeof servicingItem>;
export const servicingPage = pageOf(servicingItem);

const withReason = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, reason }, { error: 'REASON_REQUIRED' });

export const holdSchema = withReason({
  action: z.enum(['hold', 'release'], { error: 'VALIDATION_FAILED' }),
  /** Shown to the borrower while the loan is on hold ("Withdrawals are paused: {message}"). */
  message: text().trim().max(limits.holdMessage, { error: 'FIELD_TOO_LONG' }).optional().default(''),
});
export const bankDetailsSchema = withReason({
  bankName: text({ error: 'FIELD_REQUIRED' })
    .trim()
    .min(1, { error: 'FIELD_REQUIRED', abort: true })
    .max(limits.bankName, { error: 'FIELD_TOO_LONG' }),
  accountNumber: text({ error: 'FIELD_REQUIRED' })
    .trim()
    .min(1, { error: 'FIELD_REQUIRED', abort: true })
    .max(limits.accountNumber, { error: 'FIELD_TOO_LONG' })
    .regex(/^\d+$/, { error: 'FIELD_DIGITS_ONLY' }),
});
export const creditScoreChangeSchema = withReason({ creditScore: creditScoreSchema });
/** The language a borrower asked staff to send them everything in (issue #36). */
export const borrowerLanguageChangeSchema = withReason({
  language: z.enum(languages, { error: 'VALIDATION_FAILED' }),
});
export const messageSchema = withReason({
  message: text({ error: 'FIELD_REQUIRED' })
    .trim()
    .min(1, { error: 'FIELD_REQUIRED', abort: true })
    .max(limits.borrowerMessage, { error: 'FIELD_TOO_LONG' }),
});
export const resetPasswordSchema = z.object({ reason }, { error: 'REASON_REQUIRED' });
export const temporaryPasswordResponse = z.object({ temporaryPassword: z.string() });
/** A borrower's reset from Loan Servicing: a code went to the borrower's phone; staff see neither. */
export const passwordResetCodeSentResponse = z.object({ codeSent: z.literal(true) });

// ---- User management (admin only)

const usernamePattern = /^(?=.*[A-Za-z])[A-Za-z0-9_.-]{3,32}$/;

export const staffUserDto = z.object({
  id: z.string(),
  username: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(roles),
  status: z.enum(['active', 'deactivated']),
  mustChangePassword: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** Set while the account waits after failed logins (issue #15); an admin may unlock it. */
  lockedUntil: z.string().nullable(),
});
export const staffUserPage = pageOf(staffUserDto);

/** Roles are case-insensitive on input, stored lower-case; unknown ones are refused. */
const roleInput = text({ error: 'USER_FIELDS_REQUIRED' })
  .trim()
  .min(1, { error: 'USER_FIELDS_REQUIRED', abort: true })
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(roles, { error: 'ROLE_INVALID' }));

const required = (code: string) => text({ error: code }).trim().min(1, { error: code, abort: true });

export const createUserSchema = z.object(
  {
    username: required('USER_FIELDS_REQUIRED').regex(usernamePattern, { error: 'USERNAME_INVALID' }),
    password: text({ error: 'USER_FIELDS_REQUIRED' })
      .min(1, { error: 'USER_FIELDS_REQUIRED', abort: true })
      .min(8, { error: 'PASSWORD_TOO_SHORT', abort: true })
      .max(limits.password, { error: 'PASSWORD_TOO_LONG' }),
    phone: required('USER_FIELDS_REQUIRED')
      .overwrite(canonicalPhoneOrSame)
      .regex(canonicalMobilePattern, { error: 'PHONE_INVALID' }),
    role: roleInput,
  },
  { error: 'USER_FIELDS_REQUIRED' },
);
export type CreateUserInput = z.infer<typeof createUserSchema>;

export const updateUserSchema = z.object(
  {
    phone: required('USER_UPDATE_REQUIRED')
      .overwrite(canonicalPhoneOrSame)
      .regex(canonicalMobilePattern, { error: 'PHONE_INVALID' }),
    /** A new temporary password; the user must change it at next login. */
    password: text({ error: 'USER_UPDATE_REQUIRED' })
      .min(1, { error: 'USER_UPDATE_REQUIRED', abort: true })
      .min(8, { error: 'PASSWORD_TOO_SHORT', abort: true })
      .max(limits.password, { error: 'PASSWORD_TOO_LONG' }),
    role: roleInput.optional(),
  },
  { error: 'USER_UPDATE_REQUIRED' },
);
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export const userListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  phone: phoneSearch,
});

export const deleteUserResponse = z.object({ outcome: z.enum(['deleted', 'deactivated']) });

/** Reactivating a deactivated user always says why (it undoes a removal). */
export const reactivateUserSchema = z.object({ reason }, { error: 'REASON_REQUIRED' });

// ---- Audit log (admin only)

export const auditQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  actor: text().trim().max(64).optional().default(''),
  action: text().trim().max(64).optional().default(''),
  loan: text().trim().max(64).optional().default(''),
  from: civilDate('DATE_INVALID').optional(),
  to: civilDate('DATE_INVALID').optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** The CSV export: the same filters, and the language of its headers and readable columns. */
export const auditCsvQuery = auditQuery.omit({ page: true }).extend({
  lang: z.enum(languages).default('en'),
});

export const auditEventDto = z.object({
  id: z.number(),
  at: z.string(),
  actorUsername: z.string().nullable(),
  actorRole: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  loanNumber: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEventDto = z.infer<typeof auditEventDto>;
export const auditPage = pageOf(auditEventDto);
