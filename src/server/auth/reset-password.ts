import { AppError } from '../../domain/errors';
import { notifyBorrower, recordAudit } from '../audit/audit';
import type { AppDeps } from '../deps';
import type { StaffContext } from '../loans/staff-context';
import { temporaryPassword } from './crypto';
import { hashPassword } from './passwords';
import { destroyUserSessions } from './sessions';

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
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  await deps.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw new AppError('NOT_FOUND');
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
