import { accountMachine } from '../../../domain/status-machines';
import { recordAudit } from '../../audit/audit';
import { lockUser, newTemporaryPassword } from '../../auth/reset-password';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';

/**
 * Undoes a deactivation. The old password is not trusted again (the account may have been deactivated
 * because it was shared or leaked): the user gets a temporary password, returned once for the admin to
 * hand over, and must choose a new one at the next login. Reactivation only ever adds an active user, so
 * the last-admin rule cannot be broken by it.
 */
export async function reactivateUser(
  deps: AppDeps,
  ctx: StaffContext,
  id: string,
  reason: string,
): Promise<string> {
  const { password, passwordHash } = await newTemporaryPassword();
  await deps.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, id);
    const status = accountMachine.statusAfter('reactivate', user.status);
    await trx
      .updateTable('users')
      .set({ status, password_hash: passwordHash, must_change_password: true })
      .where('id', '=', id)
      .execute();
    const snapshot = { username: user.username, phone: user.phone, role: user.role };
    await recordAudit(trx, ctx.actor, {
      action: 'user.reactivate',
      targetType: 'user',
      targetId: id,
      before: { ...snapshot, status: user.status, mustChangePassword: user.must_change_password },
      after: { ...snapshot, status, mustChangePassword: true, password: 'reset' },
      reason,
    });
  });
  publishAfterCommit(deps, { type: 'users-changed' });
  return password;
}
