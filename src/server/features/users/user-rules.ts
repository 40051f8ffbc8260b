import { type Kysely, sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { Database, User } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Nobody removes or demotes themselves, and there is always at least one active admin. */
export async function assertMayRemoveOrDemote(trx: Db, actor: User, target: User): Promise<void> {
  if (actor.id === target.id) throw new AppError('CANNOT_CHANGE_SELF');
  if (target.role === 'admin' && target.status === 'active') {
    const admins = await trx
      .selectFrom('users')
      .select(sql<number>`count(*)`.as('count'))
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    if (Number(admins.count) <= 1) throw new AppError('LAST_ADMIN');
  }
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
