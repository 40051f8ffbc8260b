import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { Database, User } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Locks a user about to be removed or demoted, and enforces the rules: nobody acts on themselves, and
 * there is always one active admin left. When the target is an admin, every active admin row is locked
 * first and in id order, so two admins removing each other at once queue up instead of deadlocking, and
 * the second one sees it would remove the last admin.
 */
export async function lockUserForRemoval(
  trx: Transaction<Database>,
  actor: User,
  id: string,
  options: { removesAdminRole: (target: User) => boolean },
): Promise<User> {
  const peek = await trx.selectFrom('users').select('role').where('id', '=', id).executeTakeFirst();
  if (!peek) throw new AppError('NOT_FOUND');
  const activeAdmins =
    peek.role === 'admin'
      ? await trx
          .selectFrom('users')
          .select('id')
          .where('role', '=', 'admin')
          .where('status', '=', 'active')
          .orderBy('id')
          .forUpdate()
          .execute()
      : [];
  const target = await trx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!target) throw new AppError('NOT_FOUND');
  if (actor.id === target.id) throw new AppError('CANNOT_CHANGE_SELF');
  const isActiveAdmin = target.role === 'admin' && target.status === 'active';
  if (isActiveAdmin && options.removesAdminRole(target) && activeAdmins.length <= 1)
    throw new AppError('LAST_ADMIN');
  return target;
}

/** Whether any record of money, documents or history points at the user (then they are only deactivated). */
export async function ownsRecords(trx: Db, userId: string): Promise<boolean> {
  const { rows } = await sql<{ owns: boolean }>`
    select exists (select 1 from applications where borrower_id = ${userId} or decided_by = ${userId})
        or exists (select 1 from documents where owner_id = ${userId})
        or exists (select 1 from disbursements where decided_by = ${userId})
        or exists (select 1 from audit_events where actor_id = ${userId})
        or exists (select 1 from borrower_events where borrower_id = ${userId}) as owns
  `.execute(trx);
  return rows[0]?.owns ?? true;
}
