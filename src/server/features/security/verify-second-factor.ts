import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { totpCodePattern } from '../../../domain/schemas/second-factor';
import { recordAudit } from '../../audit/audit';
import { checkWithinLimits } from '../../auth/attempt-limits';
import { destroySession, type SessionContext } from '../../auth/sessions';
import { type StartedSession, secondFactorLimit, startSession } from '../../auth/staff-sign-in';
import { decryptTotpSecret, recoveryCodeHash, totpStep } from '../../auth/totp';
import type { AppDeps } from '../../deps';
import { type RelyingParty, verifyPasskey } from './passkeys';

export interface SignInMeta {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The second step of a staff sign-in: a current TOTP code (each 30-second step accepted once) or an unused
 * recovery code (then spent). Wrong codes count per user: five within 15 minutes lock the step for 15
 * minutes. On success the waiting session is replaced by a full one.
 */
export async function verifySecondFactor(
  deps: AppDeps,
  pending: SessionContext,
  code: string,
  meta: SignInMeta,
): Promise<StartedSession> {
  const user = pending.user;
  const normalized = code.replace(/\s/g, '');
  const accepted = await checkWithinLimits(deps, 'second_factor', [secondFactorLimit(user.id)], () =>
    totpCodePattern.test(normalized)
      ? acceptTotp(deps, user.id, normalized)
      : acceptRecoveryCode(deps, pending, normalized, meta),
  );
  if (!accepted) throw new AppError('SECOND_FACTOR_INVALID', { fields: { code: 'SECOND_FACTOR_INVALID' } });
  return completeSignIn(deps, pending, meta);
}

/** The second step with a passkey's answer, under the same limit as codes. */
export async function signInWithPasskey(
  deps: AppDeps,
  pending: SessionContext,
  rp: RelyingParty,
  response: unknown,
  meta: SignInMeta,
): Promise<StartedSession> {
  const accepted = await checkWithinLimits(deps, 'second_factor', [secondFactorLimit(pending.user.id)], () =>
    verifyPasskey(deps, pending, rp, response),
  );
  if (!accepted) throw new AppError('PASSKEY_INVALID');
  return completeSignIn(deps, pending, meta);
}

/** Ends the waiting session and opens the full one. */
async function completeSignIn(
  deps: AppDeps,
  pending: SessionContext,
  meta: SignInMeta,
): Promise<StartedSession> {
  await destroySession(deps.db, pending.idHash);
  return startSession(deps, pending.user, meta, { secondFactorGiven: true });
}

async function acceptTotp(deps: AppDeps, userId: string, code: string): Promise<boolean> {
  const row = await deps.db
    .selectFrom('user_totp')
    .select('secret_encrypted')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  if (!row) return false;
  const step = totpStep(decryptTotpSecret(deps.config.sessionSecret, row.secret_encrypted), code, Date.now());
  if (step === null) return false;
  // One atomic update: of two requests with the same code, only one moves the step forward (no replay).
  const moved = await deps.db
    .updateTable('user_totp')
    .set({ last_used_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

async function acceptRecoveryCode(
  deps: AppDeps,
  pending: SessionContext,
  code: string,
  meta: SignInMeta,
): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('user_recovery_codes')
      .set({ used_at: sql<Date>`now()` })
      .where('user_id', '=', pending.user.id)
      .where('code_hash', '=', recoveryCodeHash(deps.config.sessionSecret, code))
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!spent) return false;
    const left = await trx
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', pending.user.id)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    await recordAudit(
      trx,
      {
        id: pending.user.id,
        username: pending.user.username ?? pending.user.phone,
        role: pending.user.role,
        ip: meta.ip,
      },
      {
        action: 'user.recovery_code_used',
        targetType: 'user',
        targetId: pending.user.id,
        after: { recoveryCodesLeft: Number(left.n) },
      },
    );
    return true;
  });
}
