import type { SendPasswordResetCodeInput } from '../../../domain/schemas/auth';
import { codeSms } from '../../../domain/sms-texts';
import { passwordResetTarget } from '../../auth/password-reset-codes';
import { codeSendingDeps, codeSentAnswer, deliverCode, reserveCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';

/**
 * "Forgot password?": a code by SMS to the phone's account. The answer never tells whether the phone has an
 * (active) account: a phone without one gets the same work and the same answer — the resend wait, the
 * per-phone, per-address and overall ceilings, a stored code — only nothing is sent. The SMS is handed to
 * the notifier without waiting for it, so a slow gateway does not tell the two apart by time either; a
 * failed send removes the code (a resend is not held up) and is logged.
 */
export async function sendPasswordResetCode(
  deps: AppDeps,
  input: SendPasswordResetCodeInput,
  clientIp: string,
) {
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'status', 'language'])
    .where('phone', '=', input.phone)
    .executeTakeFirst();
  const account = user?.status === 'active' ? user : null;
  const sending = codeSendingDeps(deps);
  const target = passwordResetTarget(input.phone, account?.id ?? null);
  const reserved = await deps.db.transaction().execute((trx) => reserveCode(trx, sending, clientIp, target));
  if (account) {
    // In the account's stored language (issue #36); a phone without an account is sent nothing at all.
    const text = (code: string) => codeSms.passwordReset(account.language, code);
    deliverCode(sending, reserved, target, text).catch((error: unknown) =>
      deps.log.error({ err: error }, 'password reset code not delivered'),
    );
  }
  return codeSentAnswer(sending);
}
