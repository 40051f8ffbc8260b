import { sql } from 'kysely';
import { PAGE_SIZE } from '../../../domain/schemas/staff';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { pageOffset, toPage } from '../../lib/paging';
import { toStaffUserDto } from './user-dto';

export async function listUsers(deps: AppDeps, query: { page: number; phone: string }) {
  let base = deps.db.selectFrom('users');
  if (query.phone) base = base.where('phone', 'like', `%${escapeLike(query.phone)}%`);
  const [{ total }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    base
      .leftJoin('login_throttle as lock', (join) =>
        join
          .on('lock.key', '=', sql<string>`'account:' || users.id::text`)
          .on('lock.locked_until', '>', sql<Date>`now()`),
      )
      .selectAll('users')
      .select('lock.locked_until')
      .orderBy('users.created_at', 'desc')
      .orderBy('users.id', 'desc')
      .limit(PAGE_SIZE)
      .offset(pageOffset(query.page))
      .execute(),
  ]);
  return toPage(
    rows.map((row) => toStaffUserDto(row, row.locked_until)),
    total,
    query.page,
  );
}
