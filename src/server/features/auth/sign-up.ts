import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { defaultLanguage } from '../../../domain/languages';
import type { SignupInput } from '../../../domain/schemas/auth';
import { assertStrongPassword } from '../../auth/password-strength';
import { hashPassword } from '../../auth/passwords';
import { createSession } from '../../auth/sessions';
import type { StartedSession } from '../../auth/staff-sign-in';
import { assertCodeMatches, codeCheckDeps, withVerifiedCode } from '../../auth/verification-codes';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { publishAfterCommit } from '../../events/publish-after-commit';
import { isUniqueViolation } from '../../lib/db-errors';

/** The new account and the session that signs it in. */
export interface SignUpResult extends StartedSession {
  user: User;
}

/**
 * Creates a borrower account once the phone's sign-up code checks out; the code is spent only on success.
 * The code is checked before the password is hashed, so anonymous requests with made-up codes cost one
 * HMAC, not an argon2 hash (issue #15); the password's strength is checked after the code, too.
 *
 * The borrower is signed in at once (issue #32): the account, its consent and its session (a borrower's,
 * made the way sign-in makes one) commit together, so a new borrower goes on to apply without typing the
 * password again. The code they just used proved the phone, and the password is the one they just chose.
 */
export async function signUp(
  deps: AppDeps,
  input: SignupInput,
  client: { ip: string | null; userAgent: string | null },
): Promise<SignUpResult> {
  // Consent to the notice in force (RA 10173): one read while the form was open is not enough if the
  // lender published another version meanwhile; the borrower must see the one they agree to.
  const noticeVersion = deps.config.privacy.noticeVersion;
  if (input.privacyNoticeVersion !== noticeVersion) {
    throw new AppError('PRIVACY_NOTICE_OUTDATED', {
      fields: { privacyNoticeVersion: 'PRIVACY_NOTICE_OUTDATED' },
    });
  }
  const codeDeps = codeCheckDeps(deps);
  const target = { phone: input.phone, purpose: 'signup' as const, context: '' };
  // The code first: only the phone's holder may learn that it is registered (issue #33). A registered
  // phone was sent a notice, not its code, so for anyone else this is the wrong-code answer.
  await assertCodeMatches(codeDeps, target, input.code);
  const taken = await deps.db
    .selectFrom('users')
    .select('id')
    .where('phone', '=', input.phone)
    .executeTakeFirst();
  if (taken) throw new AppError('PHONE_TAKEN', { fields: { phone: 'PHONE_TAKEN' } });
  await assertStrongPassword(input.password, 'password', [input.phone]);
  const passwordHash = await hashPassword(input.password);
  let result: SignUpResult;
  try {
    result = await withVerifiedCode(codeDeps, target, input.code, async (trx) => {
      const user = await trx
        .insertInto('users')
        .values({
          phone: input.phone,
          password_hash: passwordHash,
          role: 'borrower',
          privacy_notice_version: noticeVersion,
          // The language the sign-up screen showed: everything the account is sent is written in it.
          language: input.language ?? defaultLanguage,
          // Signed in by this very request, as a sign-in would record it.
          last_login_at: sql`now()`,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('consents')
        .values({
          user_id: user.id,
          notice_version: noticeVersion,
          context: 'signup',
          ip: client.ip,
          user_agent: client.userAgent,
        })
        .execute();
      const session = await createSession(trx, deps.config.sessionSecret, user, client);
      return { user, ...session };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_phone_key')) {
      throw new AppError('PHONE_TAKEN', { fields: { phone: 'PHONE_TAKEN' } });
    }
    throw error;
  }
  // The back office's "Registered Today" should not wait for its cache to expire.
  publishAfterCommit(deps, { type: 'users-changed' });
  return result;
}
