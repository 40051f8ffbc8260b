import { sql } from 'kysely';
import type { AppDeps } from '../../deps';
import { escapeLike } from '../../lib/like';
import { cappedTotal, pageWindow, toPage } from '../../lib/paging';
import { toStaffUserDto } from './user-dto';

/** Every account, newest first; keys and the capped total from the (created_at, id) index (migration 017). */
export async function listUsers(deps: AppDeps, query: { page: number; phone: string }) {
  let keys = deps.db.selectFrom('users').select(['users.id', 'users.created_at as at']);
  if (query.phone) keys = keys.where('users.phone', 'like', `%${escapeLike(query.phone)}%`);
  const order = [
    ['at', 'desc'],
    ['id', 'desc'],
  ] as const;
  const rows = await deps.db
    .selectFrom(pageWindow(deps.db, keys, order, query.page).as('page'))
    .innerJoin('users', 'users.id', 'page.id')
    .leftJoin('login_throttle as lock', (join) =>
      join
        .on('lock.key', '=', sql<string>`'account:' || users.id::text`)
        .on('lock.locked_until', '>', sql<Date>`now()`),
    )
    .selectAll('users')
    .select(['page.window_count', 'lock.locked_until'])
    .orderBy('page.at', 'desc')
    .orderBy('page.id', 'desc')
    .execute();
  const counted = await cappedTotal(deps.db, keys, rows[0]?.window_count, query.page);
  return toPage(
    rows.map((row) => toStaffUserDto(row, row.locked_until)),
    counted,
    query.page,
  );
}
