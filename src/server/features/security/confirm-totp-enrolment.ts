import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { recordAudit } from '../../audit/audit';
import type { StaffContext } from '../../auth/staff-context';
import { decryptTotpSecret, newRecoveryCodes, recoveryCodeHash, totpStep } from '../../auth/totp';
import type { AppDeps } from '../../deps';

/**
 * Step 2: a current code from the app confirms the secret. The user gets ten single-use recovery codes,
 * shown this once and stored only as keyed hashes.
 */
export async function confirmTotpEnrolment(
  deps: AppDeps,
  ctx: StaffContext,
  code: string,
): Promise<{ recoveryCodes: string[] }> {
  const recoveryCodes = newRecoveryCodes();
  await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', ctx.staff.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new AppError('TOTP_SETUP_EXPIRED');
    if (row.confirmed_at) throw new AppError('TOTP_ALREADY_ENABLED');
    const secret = decryptTotpSecret(deps.config.sessionSecret, row.secret_encrypted);
    // Wall-clock time, as the authenticator app uses (never a test clock).
    const step = totpStep(secret, code, Date.now());
    if (step === null)
      throw new AppError('SECOND_FACTOR_INVALID', { fields: { code: 'SECOND_FACTOR_INVALID' } });
    await trx
      .updateTable('user_totp')
      .set({ confirmed_at: sql<Date>`now()`, last_used_step: step })
      .where('user_id', '=', ctx.staff.id)
      .execute();
    await trx.deleteFrom('user_recovery_codes').where('user_id', '=', ctx.staff.id).execute();
    await trx
      .insertInto('user_recovery_codes')
      .values(
        recoveryCodes.map((c) => ({
          user_id: ctx.staff.id,
          code_hash: recoveryCodeHash(deps.config.sessionSecret, c),
        })),
      )
      .execute();
    await recordAudit(trx, ctx.actor, {
      action: 'user.totp_enabled',
      targetType: 'user',
      targetId: ctx.staff.id,
      before: { totp: false },
      after: { totp: true, recoveryCodes: recoveryCodes.length },
    });
  });
  return { recoveryCodes };
}
