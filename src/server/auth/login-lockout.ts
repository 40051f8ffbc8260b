import type { LoginLockoutConfig } from '../config';
import type { User } from '../db/schema';
import { clientBucket } from '../lib/rate-limits';
import { type AttemptDeps, type AttemptLimit, checkWithinLimits } from './attempt-limits';
import { verifyPassword } from './passwords';

/**
 * Password lockout (issue #15; taken before the check since issue #33: `attempt-limits.ts`).
 *
 * - Per account: counted on the account, whatever identifier was typed (phone or username, any case), and
 *   by every check of the account's password (sign-in, changing it, closing the account), so the routes do
 *   not add up to more guesses. After `afterFailures` failures in a row the account waits `firstMinutes`;
 *   each further failure doubles the wait, up to `maxMinutes`, so nobody can lock an account (the admin's
 *   included) for longer than that, and an admin can unlock it at once. A failure streak is forgotten a day
 *   after it began or on success. An identifier that names no account is counted the same way under its
 *   own key, so the answers do not tell whether an account exists.
 * - Per client address (IPv6: one /64): `failuresPerIp` failures within 15 minutes lock it for 15 minutes.
 */
const ADDRESS_WINDOW_MINUTES = 15;
const ADDRESS_LOCK_MINUTES = 15;
const STREAK_MINUTES = 24 * 60;

export const accountLockKey = (userId: string) => `account:${userId}`;
export const unknownIdentifierKey = (identifier: string) => `unknown:${identifier}`;
export const addressLockKey = (ip: string) => `address:${clientBucket(ip)}`;

/** The limit on guesses at one account's password (or at an identifier that names none). */
export function accountPasswordLimit(policy: LoginLockoutConfig, key: string): AttemptLimit {
  return {
    key,
    limit: policy.afterFailures,
    windowMinutes: STREAK_MINUTES,
    lockMinutes: policy.firstMinutes,
    maxLockMinutes: policy.maxMinutes,
    onSuccess: 'clear',
  };
}

/** The limit on wrong passwords from one client address, whatever accounts they were for. */
export function addressPasswordLimit(policy: LoginLockoutConfig, ip: string): AttemptLimit {
  return {
    key: addressLockKey(ip),
    limit: policy.failuresPerIp,
    windowMinutes: ADDRESS_WINDOW_MINUTES,
    lockMinutes: ADDRESS_LOCK_MINUTES,
    onSuccess: 'release',
  };
}

/**
 * Checks a signed-in user's own password (to change it, to close the account) under the account's limit:
 * a stolen session cannot guess the password any faster than the sign-in form allows.
 */
export function checkOwnPassword(
  deps: AttemptDeps & { config: { loginLockout: LoginLockoutConfig } },
  user: Pick<User, 'id' | 'password_hash'>,
  password: string,
): Promise<boolean> {
  const limit = accountPasswordLimit(deps.config.loginLockout, accountLockKey(user.id));
  return checkWithinLimits(deps, 'password', [limit], () => verifyPassword(user.password_hash, password));
}
