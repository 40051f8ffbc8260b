import { sql } from 'kysely';
import { loanBalance } from '../../../domain/loan/balance';
import { runningStatuses } from '../../../domain/loan/status';
import type { ListQuery, ServicingItem } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { withdrawnSql } from '../../lib/loan-balance';
import { applicationList, searchedListPage, toPage } from '../../lib/paging';
import { termsChangePendingSql } from '../../loans/terms-changes';

/**
 * Running loans with what is still available to withdraw, for the Loan Servicing table: keys and capped total
 * from the running-loans partial index (migration 017), the withdrawn sum for the page's ten rows only.
 */
export async function listLoans(deps: AppDeps, query: ListQuery) {
  const { rows, counted } = await searchedListPage(
    deps.db,
    await applicationList(deps.db, runningStatuses, 'decided_at', query, deps.broadSearches),
    (page) =>
      page
        .innerJoin('applications', 'applications.id', 'page.id')
        .select([
          'applications.id',
          'applications.loan_number',
          'applications.full_name',
          'applications.phone',
          'applications.approved_amount',
          'applications.credit_score',
          'applications.decided_at',
          'applications.status',
          'applications.status_message',
          withdrawnSql(sql.ref('applications.id')).as('withdrawn'),
          termsChangePendingSql(sql.ref('applications.id')).as('terms_change_pending'),
        ]),
  );
  const items: ServicingItem[] = rows.map((r) => ({
    id: r.id,
    loanNumber: r.loan_number,
    fullName: r.full_name,
    phone: r.phone,
    approvedAmountMinor: r.approved_amount ?? 0,
    creditScore: r.credit_score,
    decidedAt: r.decided_at?.toISOString() ?? null,
    availableMinor: loanBalance({
      status: r.status,
      approvedMinor: r.approved_amount,
      withdrawnMinor: Number(r.withdrawn),
    }).availableMinor,
    status: r.status,
    statusMessage: r.status_message,
    termsChangePending: Boolean(r.terms_change_pending),
  }));
  return toPage(items, counted, query.page);
}
