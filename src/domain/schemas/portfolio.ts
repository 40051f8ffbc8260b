import { z } from 'zod';
import { loanStatuses } from '../loan/status';
import { limits } from './limits';
import { listQuerySchema, pageOf } from './staff';
import { text } from './text';

/**
 * The loan book after the payout (issue #10): the overdue queue and the portfolio figures of the dashboard.
 * Days past due = today (lender's time zone) − the due date of the oldest instalment still unpaid.
 */
export const overdueBuckets = ['1-30', '31-60', '61-90', '90+'] as const;
export type OverdueBucket = (typeof overdueBuckets)[number];

/** GET /api/staff/overdue: search like the other lists, plus loan number and a days-past-due bucket. */
export const overdueListQuery = listQuerySchema.extend({
  /** Loan number, "contains", case-insensitive. */
  q: text().trim().max(limits.repaymentReference).optional().default(''),
  bucket: z.enum(overdueBuckets, { error: 'VALIDATION_FAILED' }).optional(),
});
export type OverdueListQuery = z.infer<typeof overdueListQuery>;

/** A running loan with an instalment unpaid after its due date; most days past due first. */
export const overdueListItem = z.object({
  id: z.string(),
  loanNumber: z.string(),
  fullName: z.string(),
  phone: z.string(),
  status: z.enum(loanStatuses),
  /** Due date of the oldest unpaid instalment (YYYY-MM-DD). */
  overdueSince: z.string(),
  daysPastDue: z.number(),
  /** Scheduled amounts due and unpaid today (instalments whose due date has passed). */
  overdueMinor: z.number(),
  outstandingPrincipalMinor: z.number(),
  /** Next instalment not yet fully paid, or null when none is left. */
  nextDueDate: z.string().nullable(),
});
export type OverdueListItem = z.infer<typeof overdueListItem>;

export const overduePage = pageOf(overdueListItem).extend({
  /**
   * Loans in each bucket (over the whole book, ignoring the search and the bucket filter): exact up to the
   * list cap, then that cap with `bucketsCapped` true, shown as "1,000+" (docs/decisions/022).
   */
  buckets: z.object({ '1-30': z.number(), '31-60': z.number(), '61-90': z.number(), '90+': z.number() }),
  bucketsCapped: z.object({
    '1-30': z.boolean(),
    '31-60': z.boolean(),
    '61-90': z.boolean(),
    '90+': z.boolean(),
  }),
});
export type OverduePage = z.infer<typeof overduePage>;

/** GET /api/staff/dashboard/portfolio: computed by SQL over the loans paid out. */
export const portfolioSummary = z.object({
  /** Civil date (lender's time zone) the figures are for. */
  asOf: z.string(),
  /** Principal paid out and not yet repaid, over loans approved, on hold (closed loans owe none). */
  outstandingPrincipalMinor: z.number(),
  /** Repayments received this calendar month (lender's time zone), reversals excluded. */
  collectedThisMonthMinor: z.number(),
  /** Fees deducted from the payouts marked paid this calendar month: fee income (issue #31). */
  feesThisMonthMinor: z.number(),
  /** Loans with an instalment unpaid beyond the grace days. */
  overdueLoans: z.number(),
  /** Portfolio at risk over 30 days: outstanding principal of loans more than 30 days past due ÷ all
   *  outstanding principal, in basis points (0–10,000); 0 when nothing is outstanding. */
  par30Bp: z.number(),
});
export type PortfolioSummary = z.infer<typeof portfolioSummary>;
