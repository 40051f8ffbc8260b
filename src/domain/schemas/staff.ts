import { z } from 'zod';
import { loanStatuses } from '../loan/status';

export const PAGE_SIZE = 10;

/** Search and paging for back-office lists: trimmed text; an empty search matches everything. */
export const listQuerySchema = z.object({
  page: z.coerce.number({ error: 'VALIDATION_FAILED' }).int().min(1).max(1_000_000).default(1),
  name: z.string().trim().max(100).optional().default(''),
  phone: z.string().trim().max(15).regex(/^\d*$/, { error: 'FIELD_DIGITS_ONLY' }).optional().default(''),
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
});
export type ApplicationListItem = z.infer<typeof applicationListItem>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number(),
    pageSize: z.number(),
    total: z.number(),
    pageCount: z.number(),
  });

export const applicationPage = pageOf(applicationListItem);
export type ApplicationPage = z.infer<typeof applicationPage>;

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
});
export type ApplicationProfile = z.infer<typeof applicationProfile>;

const reason = z
  .string({ error: 'REASON_REQUIRED' })
  .trim()
  .min(1, { error: 'REASON_REQUIRED', abort: true })
  .max(500, { error: 'FIELD_TOO_LONG' });

export const creditScoreSchema = z.coerce
  .number({ error: 'CREDIT_SCORE_INVALID' })
  .int({ error: 'CREDIT_SCORE_INVALID' })
  .min(0, { error: 'CREDIT_SCORE_INVALID' })
  .max(1000, { error: 'CREDIT_SCORE_INVALID' });

export const approveSchema = z.object({ creditScore: creditScoreSchema.default(500) });
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
  timeZone: z.string(),
});
export type DashboardSummary = z.infer<typeof dashboardSummary>;
