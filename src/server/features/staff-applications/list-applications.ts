import { sql } from 'kysely';
import { awaitingDecisionStatuses, type LoanStatus, runningStatuses } from '../../../domain/loan/status';
import type { ApplicationListItem, ListQuery } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { applicationList, searchedListPage, toPage } from '../../lib/paging';
import { staffNameSql } from '../../lib/staff-name-sql';
import { termsChangePendingSql } from '../../loans/terms-changes';

export type ApplicationQueue = 'pending' | 'approved';

/** Pending: awaiting a decision. Approved: running loans (approved or on hold). */
const queueStatuses: Record<ApplicationQueue, readonly LoanStatus[]> = {
  pending: awaitingDecisionStatuses,
  approved: runningStatuses,
};

/**
 * One page of a back-office queue. Name is a case-insensitive "contains" on the trimmed text, phone a
 * "contains" on digits; both must match. The page's keys and the capped total come from one statement over
 * the queue's partial index (migration 017: the status set, in list order, with name and phone included), so
 * a search reads the index once and deep pages skip index entries, not table rows.
 */
export async function listApplications(deps: AppDeps, queue: ApplicationQueue, query: ListQuery) {
  const dateColumn = queue === 'pending' ? 'submitted_at' : 'decided_at';
  const { rows, counted } = await searchedListPage(
    deps.db,
    await applicationList(deps.db, queueStatuses[queue], dateColumn, query, deps.broadSearches),
    (page) =>
      page
        .innerJoin('applications', 'applications.id', 'page.id')
        .select([
          'applications.id',
          'applications.loan_number',
          'applications.full_name',
          'applications.phone',
          'applications.amount',
          'applications.approved_amount',
          'applications.term_months',
          'applications.monthly_payment',
          'applications.status',
          'applications.submitted_at',
          'applications.decided_at',
          'applications.credit_score',
          staffNameSql(sql.ref('applications.decided_by')).as('decided_by_name'),
          'applications.first_approved_at',
          staffNameSql(sql.ref('applications.first_approved_by')).as('first_approved_by_name'),
          termsChangePendingSql(sql.ref('applications.id')).as('terms_change_pending'),
        ]),
  );

  const items: ApplicationListItem[] = rows.map((r) => ({
    id: r.id,
    loanNumber: r.loan_number,
    fullName: r.full_name,
    phone: r.phone,
    amountMinor: r.amount,
    approvedAmountMinor: r.approved_amount,
    termMonths: r.term_months,
    monthlyPaymentMinor: r.monthly_payment,
    status: r.status,
    submittedAt: r.submitted_at.toISOString(),
    decidedAt: r.decided_at?.toISOString() ?? null,
    decidedBy: r.decided_by_name,
    creditScore: r.credit_score,
    firstApprovedBy: r.first_approved_at ? r.first_approved_by_name : null,
    firstApprovedAt: r.first_approved_at?.toISOString() ?? null,
    termsChangePending: Boolean(r.terms_change_pending),
  }));
  return toPage(items, counted, query.page);
}
