import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import { toPhMobile } from '../../../domain/phone';
import type { LoginInput } from '../../../domain/schemas/auth';
import { checkWithinLimits } from '../../auth/attempt-limits';
import {
  accountLockKey,
  accountPasswordLimit,
  addressPasswordLimit,
  unknownIdentifierKey,
} from '../../auth/login-lockout';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords';
import { type StartedSession, startSession } from '../../auth/staff-sign-in';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';

export interface LoginResult extends StartedSession {
  user: User;
}

export async function logIn(
  deps: AppDeps,
  input: LoginInput,
  meta: { ip: string; userAgent: string | null },
) {
  const identifier = input.identifier.toLowerCase();
  // A phone may be typed any common way ("+63 917 123 4567"); accounts keep its one form (issue #32).
  // Anything else is a username, or a phone stored before that form (compared as typed).
  const phone = toPhMobile(identifier) ?? identifier;
  const user = await deps.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('phone', '=', phone), eb(sql`lower(username)`, '=', identifier)]))
    .executeTakeFirst();
  // The lock is on the account, however it was named; an unknown name is counted alike (no hint).
  const accountKey = user ? accountLockKey(user.id) : unknownIdentifierKey(phone);
  const policy = deps.config.loginLockout;
  // The attempt is taken before the password is checked (issue #33): a burst cannot out-guess the lock.
  const passwordOk = await checkWithinLimits(
    deps,
    'password',
    [addressPasswordLimit(policy, meta.ip), accountPasswordLimit(policy, accountKey)],
    async () => {
      if (user) return verifyPassword(user.password_hash, input.password);
      await burnPasswordCheck(input.password);
      return false;
    },
  );
  if (!user || !passwordOk) throw new AppError('INVALID_CREDENTIALS');
  // Only someone who knows the password learns that the account is deactivated.
  if (user.status !== 'active') throw new AppError('ACCOUNT_DEACTIVATED');

  const updated = await deps.db
    .updateTable('users')
    .set({ last_login_at: sql`now()` })
    .where('id', '=', user.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // Staff with a second factor get a session that only allows the second-factor step (decision 017).
  const session = await startSession(deps, updated, { ip: meta.ip, userAgent: meta.userAgent });
  return { user: updated, ...session } satisfies LoginResult;
}
