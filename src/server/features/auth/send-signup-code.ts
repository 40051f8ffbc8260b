import { AppError } from '../../../domain/errors';
import type { SendSignupCodeInput } from '../../../domain/schemas/auth';
import { issueCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';

/** `clientIp`: the caller's address (request.ip), for the per-address ceiling on codes. */
export async function sendSignupCode(deps: AppDeps, input: SendSignupCodeInput, clientIp: string) {
  const existing = await deps.db
    .selectFrom('users')
    .select('id')
    .where('phone', '=', input.phone)
    .executeTakeFirst();
  if (existing) throw new AppError('PHONE_TAKEN', { fields: { phone: 'PHONE_TAKEN' } });
  return issueCode(
    {
      db: deps.db,
      secret: deps.config.sessionSecret,
      notifier: deps.notifier,
      resendAfterSeconds: deps.config.codeResendSeconds,
      limits: deps.config.codeLimits,
    },
    clientIp,
    { phone: input.phone, purpose: 'signup', context: '' },
    (code) =>
      `Hiram: your sign-up code is ${code}. It expires in 5 minutes. We will never ask you for this code.`,
  );
}
