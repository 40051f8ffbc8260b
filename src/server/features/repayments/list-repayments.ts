import { type SqlBool, sql } from 'kysely';
import type { RepaymentListQuery } from '../../../domain/schemas/payments';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { loanNumberMatchesSql } from '../../lib/loan-number-search';
import { borrowerSearch, cappedTotal, pageWindow, toPage } from '../../lib/paging';

/**
 * The Repayments list: every recorded repayment, newest first, searchable by the borrower's name and phone
 * and by loan number (written any way, `lib/loan-number-search.ts`) or payment reference ("contains",
 * case-insensitive). Keys and the capped total come
 * from the (created_at, id) index (migration 017); the loan is joined for the search only.
 */
export async function listRepayments(deps: AppDeps, query: RepaymentListQuery) {
  const search = borrowerSearch(query);
  let keys = deps.db.selectFrom('repayments').select(['repayments.id', 'repayments.created_at as at']);
  if (search.length > 0 || query.q) {
    const pattern = query.q ? `%${escapeLike(query.q.toLowerCase())}%` : '';
    keys = keys.where((eb) =>
      eb.exists(
        eb
          .selectFrom('applications')
          .select(sql`1`.as('one'))
          .whereRef('applications.id', '=', 'repayments.application_id')
          .where(
            eb.and([
              ...search,
              ...(query.q
                ? [
                    sql<SqlBool>`(${loanNumberMatchesSql('applications.loan_number', query.q)} or lower(repayments.reference) like ${pattern})`,
                  ]
                : []),
            ]),
          ),
      ),
    );
  }
  const order = [
    ['at', 'desc'],
    ['id', 'desc'],
  ] as const;
  const rows = await deps.db
    .selectFrom(pageWindow(deps.db, keys, order, query.page).as('page'))
    .innerJoin('repayments', 'repayments.id', 'page.id')
    .innerJoin('applications', 'applications.id', 'repayments.application_id')
    .leftJoin('repayment_reversals', 'repayment_reversals.repayment_id', 'repayments.id')
    .select([
      'page.window_count',
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
    .orderBy('page.at', 'desc')
    .orderBy('page.id', 'desc')
    .execute();
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
  return toPage(items, await cappedTotal(deps.db, keys, rows[0]?.window_count, query.page), query.page);
}
