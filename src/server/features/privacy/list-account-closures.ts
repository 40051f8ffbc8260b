import { sql } from 'kysely';
import type { AccountClosurePage } from '../../../domain/schemas/account-closures';
import { PAGE_SIZE } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { pageOffset, toPage } from '../../lib/paging';

/** Closed borrower accounts, newest request first, searchable by phone; paged on the server. */
export async function listAccountClosures(
  deps: AppDeps,
  query: { page: number; phone: string },
): Promise<AccountClosurePage> {
  let base = deps.db
    .selectFrom('account_closures')
    .innerJoin('users', 'users.id', 'account_closures.user_id');
  if (query.phone) base = base.where('users.phone', 'like', `%${escapeLike(query.phone)}%`);
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'account_closures.user_id',
      'users.phone',
      'account_closures.requested_at',
      'account_closures.anonymise_on',
      'account_closures.anonymised_at',
      sql<string | null>`(
        select a.full_name from applications a where a.borrower_id = users.id
        order by a.submitted_at desc limit 1
      )`.as('full_name'),
    ])
    .orderBy('account_closures.requested_at', 'desc')
    .orderBy('account_closures.user_id')
    .limit(PAGE_SIZE)
    .offset(pageOffset(query.page))
    .execute();
  return toPage(
    rows.map((row) => ({
      userId: row.user_id,
      phone: row.phone,
      fullName: row.anonymised_at ? null : (row.full_name ?? null),
      requestedAt: row.requested_at.toISOString(),
      anonymiseOn: row.anonymise_on,
      anonymisedAt: row.anonymised_at?.toISOString() ?? null,
    })),
    // Closed accounts are few: an exact count.
    { total: Number(total), totalCapped: false },
    query.page,
  );
}
