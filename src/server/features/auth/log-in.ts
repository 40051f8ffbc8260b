import { sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { LoginInput } from '../../../domain/schemas/auth';
import {
  accountLockKey,
  addressLockKey,
  assertNotLocked,
  clearAccountLock,
  recordLoginFailure,
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
  const user = await deps.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('phone', '=', identifier), eb(sql`lower(username)`, '=', identifier)]))
    .executeTakeFirst();
  // The lock is on the account, however it was named; an unknown name is counted alike (no hint).
  const accountKey = user ? accountLockKey(user.id) : unknownIdentifierKey(identifier);
  await assertNotLocked(deps.db, [accountKey, addressLockKey(meta.ip)]);

  const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : false;
  if (!user) await burnPasswordCheck(input.password);
  if (!user || !passwordOk) {
    await recordLoginFailure(deps.db, deps.config.loginLockout, accountKey, meta.ip);
    throw new AppError('INVALID_CREDENTIALS');
  }
  // Only someone who knows the password learns that the account is deactivated.
  if (user.status !== 'active') throw new AppError('ACCOUNT_DEACTIVATED');

  await clearAccountLock(deps.db, user.id);
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
