import { AppError } from '../../../domain/errors';
import type { SignupInput } from '../../../domain/schemas/auth';
import { hashPassword } from '../../auth/passwords';
import { withVerifiedCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { isUniqueViolation } from '../../lib/db-errors';

/** Creates a borrower account once the phone's sign-up code checks out; the code is spent only on success. */
export async function signUp(deps: AppDeps, input: SignupInput): Promise<void> {
  const taken = await deps.db
    .selectFrom('users')
    .select('id')
    .where('phone', '=', input.phone)
    .executeTakeFirst();
  if (taken) throw new AppError('PHONE_TAKEN', { fields: { phone: 'PHONE_TAKEN' } });
  const passwordHash = await hashPassword(input.password);
  try {
    await withVerifiedCode(
      { db: deps.db, secret: deps.config.sessionSecret },
      { phone: input.phone, purpose: 'signup', context: '' },
      input.code,
      (trx) =>
        trx
          .insertInto('users')
          .values({ phone: input.phone, password_hash: passwordHash, role: 'borrower' })
          .execute(),
    );
  } catch (error) {
    if (isUniqueViolation(error, 'users_phone_key')) {
      throw new AppError('PHONE_TAKEN', { fields: { phone: 'PHONE_TAKEN' } });
    }
    throw error;
  }
  // The back office's "Registered Today" should not wait for its cache to expire.
  publishAfterCommit(deps, { type: 'users-changed' });
}
