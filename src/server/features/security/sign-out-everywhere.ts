import { recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';

/** Ends every session of the signed-in user, this one included (any role); audited. */
export async function signOutEverywhere(deps: AppDeps, ctx: StaffContext): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', ctx.staff.id).executeTakeFirst();
    await recordAudit(trx, ctx.actor, {
      action: 'user.signed_out_everywhere',
      targetType: 'user',
      targetId: ctx.staff.id,
      after: { sessionsEnded: Number(ended.numDeletedRows) },
    });
  });
}
