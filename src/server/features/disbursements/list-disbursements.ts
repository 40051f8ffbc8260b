import { sql } from 'kysely';
import { PAGE_SIZE } from '../../../domain/schemas/staff';
import type { StaffDisbursementItem } from '../../../domain/schemas/wallet';
import type { DisbursementStatus } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { borrowerSearch, pageOffset, toPage } from '../../lib/paging';

export interface DisbursementQuery {
  page: number;
  name: string;
  phone: string;
  status?: DisbursementStatus | undefined;
}

/** The payout queue: search by borrower name and phone, filter by status, newest request first. */
export async function listDisbursements(deps: AppDeps, query: DisbursementQuery) {
  let base = deps.db
    .selectFrom('disbursements')
    .innerJoin('applications', 'applications.id', 'disbursements.application_id')
    .leftJoin('users as decider', 'decider.id', 'disbursements.decided_by');
  if (query.status) base = base.where('disbursements.status', '=', query.status);
  for (const condition of borrowerSearch(query)) base = base.where(condition);

  const [{ total }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    base
      .select([
        'disbursements.id',
        'disbursements.application_id',
        'disbursements.amount',
        'disbursements.bank_name',
        'disbursements.account_number',
        'disbursements.requested_at',
        'disbursements.status',
        'disbursements.reference',
        'disbursements.failure_reason',
        'disbursements.decided_at',
        sql<string | null>`coalesce(decider.username, decider.phone)`.as('decided_by_name'),
        'applications.loan_number',
        'applications.full_name',
        'applications.phone',
        'applications.status as loan_status',
      ])
      .orderBy('disbursements.requested_at', 'desc')
      .orderBy('disbursements.id', 'desc')
      .limit(PAGE_SIZE)
      .offset(pageOffset(query.page))
      .execute(),
  ]);
  const items: StaffDisbursementItem[] = rows.map((r) => ({
    id: r.id,
    applicationId: r.application_id,
    loanNumber: r.loan_number,
    fullName: r.full_name,
    phone: r.phone,
    amountMinor: r.amount,
    bankName: r.bank_name,
    accountNumberLast4: r.account_number.slice(-4),
    requestedAt: r.requested_at.toISOString(),
    status: r.status,
    reference: r.reference,
    failureReason: r.failure_reason,
    decidedAt: r.decided_at?.toISOString() ?? null,
    decidedBy: r.decided_by_name,
    loanStatus: r.loan_status,
  }));
  return toPage(items, total, query.page);
}
