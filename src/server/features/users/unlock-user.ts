import { sql } from 'kysely';
import { recordAudit } from '../../audit/audit';
import { accountLockKey } from '../../auth/login-lockout';
import { lockUser } from '../../auth/reset-password';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { toStaffUserDto } from './user-dto';

/**
 * Ends a login lockout at once (issue #15): the account's failure streak and wait are cleared, so its owner
 * can sign in again. Audited, with the lock it ended. The client-address locks are left alone: they belong
 * to an address, not to this account.
 */
export async function unlockUser(deps: AppDeps, ctx: StaffContext, id: string) {
  const user = await deps.db.transaction().execute(async (trx) => {
    const user = await lockUser(trx, id);
    const ended = await trx
      .deleteFrom('login_throttle')
      .where('key', '=', accountLockKey(id))
      .returning([
        'failures',
        sql<Date | null>`case when locked_until > now() then locked_until end`.as('lockedUntil'),
      ])
      .executeTakeFirst();
    await recordAudit(trx, ctx.actor, {
      action: 'user.unlock',
      targetType: 'user',
      targetId: id,
      before: { locked: Boolean(ended?.lockedUntil), failedLogins: ended?.failures ?? 0 },
      after: { locked: false, failedLogins: 0 },
    });
    return user;
  });
  publishAfterCommit(deps, { type: 'users-changed' });
  return toStaffUserDto(user);
}
