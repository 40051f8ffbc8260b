import { recordAudit } from '../../audit/audit';
import { clearAttempts } from '../../auth/attempt-limits';
import { lockUser } from '../../auth/reset-password';
import type { StaffContext } from '../../auth/staff-context';
import { secondFactorKey } from '../../auth/staff-sign-in';
import type { AppDeps } from '../../deps';

/**
 * An admin removes a staff member's second factors (a lost phone), with a reason: the authenticator app,
 * the recovery codes and the passkeys go, and every session of theirs ends. If their role requires a second
 * factor, they must set one up again right after their next password sign-in.
 */
export async function resetSecondFactor(deps: AppDeps, ctx: StaffContext, id: string, reason: string) {
  await deps.db.transaction().execute(async (trx) => {
    await lockUser(trx, id);
    const totp = await trx
      .deleteFrom('user_totp')
      .where('user_id', '=', id)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst();
    await trx.deleteFrom('user_totp').where('user_id', '=', id).execute();
    await trx.deleteFrom('user_recovery_codes').where('user_id', '=', id).execute();
    const passkeys = await trx.deleteFrom('user_passkeys').where('user_id', '=', id).executeTakeFirst();
    await clearAttempts(trx, secondFactorKey(id));
    await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
    await recordAudit(trx, ctx.actor, {
      action: 'user.second_factor_reset',
      targetType: 'user',
      targetId: id,
      before: { totp: Number(totp.numDeletedRows) > 0, passkeys: Number(passkeys.numDeletedRows) },
      after: { totp: false, passkeys: 0 },
      reason,
    });
  });
}
