import { AppError } from '../../../domain/errors';
import type { SendSignupCodeInput } from '../../../domain/schemas/auth';
import { issueCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';

export async function sendSignupCode(deps: AppDeps, input: SendSignupCodeInput) {
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
    },
    { phone: input.phone, purpose: 'signup', context: '' },
    (code) =>
      `Hiram: your sign-up code is ${code}. It expires in 5 minutes. We will never ask you for this code.`,
  );
}
