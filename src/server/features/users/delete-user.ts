import { accountMachine } from '../../../domain/status-machines';
import { recordAudit } from '../../audit/audit';
import { destroyUserSessions } from '../../auth/sessions';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { lockUserForRemoval, ownsRecords } from './user-rules';

/**
 * Deletes a user who has no records; a user who owns applications, loans or history is deactivated
 * instead (login refused, sessions ended, data kept). Nothing is lost either way.
 */
export async function deleteUser(deps: AppDeps, ctx: StaffContext, id: string) {
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const user = await lockUserForRemoval(trx, ctx.staff, id, { removesAdminRole: () => true });
    await destroyUserSessions(trx, id);
    const snapshot = { username: user.username, phone: user.phone, role: user.role, status: user.status };
    if (await ownsRecords(trx, id)) {
      const status = accountMachine.statusAfter('deactivate', user.status);
      await trx.updateTable('users').set({ status }).where('id', '=', id).execute();
      await recordAudit(trx, ctx.actor, {
        action: 'user.deactivate',
        targetType: 'user',
        targetId: id,
        before: snapshot,
        after: { ...snapshot, status },
      });
      return 'deactivated' as const;
    }
    await trx
      .deleteFrom('verification_codes')
      .where('phone', '=', user.phone ?? '')
      .execute();
    // Their privacy consents and a closure request go with the account (migration 015).
    await trx.deleteFrom('consents').where('user_id', '=', id).execute();
    await trx.deleteFrom('account_closures').where('user_id', '=', id).execute();
    await trx.deleteFrom('users').where('id', '=', id).execute();
    await recordAudit(trx, ctx.actor, {
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      before: snapshot,
    });
    return 'deleted' as const;
  });
  publishAfterCommit(deps, { type: 'users-changed' });
  return outcome;
}
