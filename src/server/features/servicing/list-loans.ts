import { sql } from 'kysely';
import { loanBalance } from '../../../domain/loan/balance';
import { runningStatuses } from '../../../domain/loan/status';
import { type ListQuery, PAGE_SIZE, type ServicingItem } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { withdrawnSql } from '../../lib/loan-balance';
import { borrowerSearch, pageOffset, toPage } from '../../lib/paging';
import { termsChangePendingSql } from '../../loans/terms-changes';

/** Running loans with what is still available to withdraw, for the Loan Servicing table. */
export async function listLoans(deps: AppDeps, query: ListQuery) {
  let base = deps.db.selectFrom('applications').where('applications.status', 'in', runningStatuses);
  for (const condition of borrowerSearch(query)) base = base.where(condition);
  const [{ total }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    base
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
      ])
      .orderBy('applications.decided_at', 'desc')
      .orderBy('applications.id', 'desc')
      .limit(PAGE_SIZE)
      .offset(pageOffset(query.page))
      .execute(),
  ]);
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
  return toPage(items, total, query.page);
}
