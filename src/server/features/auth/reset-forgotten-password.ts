import { AppError } from '../../../domain/errors';
import type { ResetForgottenPasswordInput } from '../../../domain/schemas/auth';
import { auditActor, recordAudit } from '../../audit/audit';
import { passwordResetTarget } from '../../auth/password-reset-codes';
import { assertStrongPassword } from '../../auth/password-strength';
import { hashPassword } from '../../auth/passwords';
import { lockUser } from '../../auth/reset-password';
import { destroyUserSessions } from '../../auth/sessions';
import { assertCodeMatches, codeCheckDeps, withVerifiedCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';

/**
 * "Forgot password?", step 2: with the phone's live reset code, sets the new password, clears a forced
 * change, ends every session of the account and audits it (the user as the actor). The code is checked
 * before the password's strength and hash (cheap refusals first, as at sign-up) and spent only on success.
 * A phone without an account has no code anyone knows: the answer is the wrong-code one.
 */
export async function resetForgottenPassword(
  deps: AppDeps,
  input: ResetForgottenPasswordInput,
  clientIp: string,
): Promise<void> {
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'phone', 'username'])
    .where('phone', '=', input.phone)
    .executeTakeFirst();
  const codeDeps = codeCheckDeps(deps);
  const target = passwordResetTarget(input.phone, user?.id ?? null);
  await assertCodeMatches(codeDeps, target, input.code);
  if (!user) throw new AppError('CODE_INVALID', { fields: { code: 'CODE_INVALID' } });
  await assertStrongPassword(input.password, 'password', [user.phone, user.username]);
  const passwordHash = await hashPassword(input.password);
  await withVerifiedCode(codeDeps, target, input.code, async (trx) => {
    const before = await lockUser(trx, user.id);
    // Only the phone's owner (who holds the code) learns this.
    if (before.status !== 'active') throw new AppError('ACCOUNT_DEACTIVATED');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, must_change_password: false })
      .where('id', '=', user.id)
      .execute();
    await destroyUserSessions(trx, user.id);
    await recordAudit(trx, auditActor(before, { ip: clientIp }), {
      action: 'user.reset_forgotten_password',
      targetType: 'user',
      targetId: user.id,
      before: { mustChangePassword: before.must_change_password },
      after: { mustChangePassword: false, password: 'reset' },
    });
  });
}
