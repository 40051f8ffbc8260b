import { AppError } from '../../../domain/errors';
import type { ChangePasswordInput } from '../../../domain/schemas/auth';
import { checkOwnPassword } from '../../auth/login-lockout';
import { assertStrongPassword } from '../../auth/password-strength';
import { hashPassword } from '../../auth/passwords';
import { destroyUserSessions, type SessionContext } from '../../auth/sessions';
import type { AppDeps } from '../../deps';

/** Changes the signed-in user's password, clears a forced change, and signs out their other sessions. */
export async function changePassword(deps: AppDeps, session: SessionContext, input: ChangePasswordInput) {
  if (!(await checkOwnPassword(deps, session.user, input.currentPassword))) {
    throw new AppError('CURRENT_PASSWORD_WRONG', { fields: { currentPassword: 'CURRENT_PASSWORD_WRONG' } });
  }
  await assertStrongPassword(input.newPassword, 'newPassword', [session.user.phone, session.user.username]);
  const passwordHash = await hashPassword(input.newPassword);
  return deps.db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: false })
      .where('id', '=', session.user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await destroyUserSessions(trx, user.id, { except: session.idHash });
    return user;
  });
}
