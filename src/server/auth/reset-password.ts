import type { Transaction } from 'kysely';
import { AppError } from '../../domain/errors';
import { notifyBorrower, recordAudit } from '../audit/audit';
import type { Database } from '../db/schema';
import type { AppDeps } from '../deps';
import type { StaffContext } from '../loans/staff-context';
import { temporaryPassword } from './crypto';
import { hashPassword } from './passwords';
import { destroyUserSessions } from './sessions';

/** A temporary password (shown once, for the admin to hand over) and its hash. */
export async function newTemporaryPassword() {
  const password = temporaryPassword();
  return { password, passwordHash: await hashPassword(password) };
}

/** The user row, locked for a change by staff; NOT_FOUND when there is none. */
export async function lockUser(trx: Transaction<Database>, userId: string) {
  const user = await trx
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!user) throw new AppError('NOT_FOUND');
  return user;
}

/**
 * Gives a user a temporary password (returned once, for the admin to hand over), forces a change at the
 * next login and ends every session the user has.
 */
export async function resetPassword(
  deps: AppDeps,
  ctx: StaffContext,
  userId: string,
  options: { reason?: string | null; loanId?: string | null } = {},
): Promise<string> {
  const { password, passwordHash } = await newTemporaryPassword();
  await deps.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, userId);
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: true })
      .where('id', '=', userId)
      .execute();
    await destroyUserSessions(trx, userId);
    await recordAudit(trx, ctx.actor, {
      action: 'user.reset_password',
      targetType: 'user',
      targetId: userId,
      loanId: options.loanId ?? null,
      before: { mustChangePassword: user.must_change_password },
      after: { mustChangePassword: true },
      reason: options.reason ?? null,
    });
    if (user.role === 'borrower') {
      await notifyBorrower(trx, {
        borrowerId: userId,
        applicationId: options.loanId ?? null,
        kind: 'password_reset',
      });
    }
  });
  return password;
}
