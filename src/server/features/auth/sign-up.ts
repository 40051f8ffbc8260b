import { AppError } from '../../../domain/errors';
import type { SignupInput } from '../../../domain/schemas/auth';
import { assertStrongPassword } from '../../auth/password-strength';
import { hashPassword } from '../../auth/passwords';
import { assertCodeMatches, withVerifiedCode } from '../../auth/verification-codes';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { isUniqueViolation } from '../../lib/db-errors';

/**
 * Creates a borrower account once the phone's sign-up code checks out; the code is spent only on success.
 * The code is checked before the password is hashed, so anonymous requests with made-up codes cost one
 * HMAC, not an argon2 hash (issue #15); the password's strength is checked after the code, too.
 */
export async function signUp(deps: AppDeps, input: SignupInput): Promise<void> {
  const taken = await deps.db
    .selectFrom('users')
    .select('id')
    .where('phone', '=', input.phone)
    .executeTakeFirst();
  if (taken) throw new AppError('PHONE_TAKEN', { fields: { phone: 'PHONE_TAKEN' } });
  const codeDeps = { db: deps.db, secret: deps.config.sessionSecret };
  const target = { phone: input.phone, purpose: 'signup' as const, context: '' };
  await assertCodeMatches(codeDeps, target, input.code);
  await assertStrongPassword(input.password, 'password', [input.phone]);
  const passwordHash = await hashPassword(input.password);
  try {
    await withVerifiedCode(codeDeps, target, input.code, (trx) =>
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
