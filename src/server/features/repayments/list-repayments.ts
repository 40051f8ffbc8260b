import { type Expression, type SqlBool, sql } from 'kysely';
import type { RepaymentListQuery } from '../../../domain/schemas/payments';
import { PAGE_SIZE } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { borrowerSearch, pageOffset, toPage } from '../../lib/paging';

/**
 * The Repayments list: every recorded repayment, newest first, searchable by the borrower's name and phone
 * and by loan number or payment reference ("contains", case-insensitive).
 */
export async function listRepayments(deps: AppDeps, query: RepaymentListQuery) {
  let base = deps.db
    .selectFrom('repayments')
    .innerJoin('applications', 'applications.id', 'repayments.application_id');
  for (const condition of borrowerSearch(query)) base = base.where(condition);
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    base = base.where(
      sql<SqlBool>`(lower(applications.loan_number) like ${pattern} or lower(repayments.reference) like ${pattern})` as Expression<SqlBool>,
    );
  }
  const [{ total }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    base
      .leftJoin('repayment_reversals', 'repayment_reversals.repayment_id', 'repayments.id')
      .select([
        'repayments.id',
        'repayments.application_id',
        'applications.loan_number',
        'applications.full_name',
        'applications.phone',
        'repayments.amount',
        sql<string>`repayments.received_on::text`.as('received_on'),
        'repayments.channel',
        'repayments.reference',
        'repayments.source',
        'repayments.created_at',
        'repayment_reversals.repayment_id as reversed_id',
      ])
      .orderBy('repayments.created_at', 'desc')
      .orderBy('repayments.id', 'desc')
      .limit(PAGE_SIZE)
      .offset(pageOffset(query.page))
      .execute(),
  ]);
  const items = rows.map((r) => ({
    id: r.id,
    loanId: r.application_id,
    loanNumber: r.loan_number,
    fullName: r.full_name,
    phone: r.phone,
    amountMinor: Number(r.amount),
    receivedOn: r.received_on,
    channel: r.channel,
    reference: r.reference,
    source: r.source,
    recordedAt: r.created_at.toISOString(),
    reversed: r.reversed_id !== null,
  }));
  return toPage(items, total, query.page);
}
