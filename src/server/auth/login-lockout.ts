import { type Kysely, sql } from 'kysely';
import { AppError } from '../../domain/errors';
import type { LoginLockoutConfig } from '../config';
import type { Database } from '../db/schema';
import { clientBucket } from '../lib/rate-limits';

/**
 * Login lockout (issue #15), kept in `login_throttle` so it holds across instances.
 *
 * - Per account: counted on the account, whatever identifier was typed (phone or username, any case).
 *   After `afterFailures` failures in a row the account waits `firstMinutes`; each further failure doubles
 *   the wait, up to `maxMinutes`, so nobody can lock an account (the admin's included) for longer than that,
 *   and an admin can unlock it at once. A failure streak is forgotten a day after it began or on success.
 *   An identifier that names no account is counted the same way under its own key, so the answers do not
 *   tell whether an account exists.
 * - Per client address (IPv6: one /64): `failuresPerIp` failures within 15 minutes lock it for 15 minutes.
 */
const ADDRESS_WINDOW_MINUTES = 15;
const ADDRESS_LOCK_MINUTES = 15;
const STREAK_RESET = sql`interval '1 day'`;

export const accountLockKey = (userId: string) => `account:${userId}`;
export const unknownIdentifierKey = (identifier: string) => `unknown:${identifier}`;
export const addressLockKey = (ip: string) => `address:${clientBucket(ip)}`;

/** Throws TOO_MANY_ATTEMPTS (429, Retry-After) while any of the keys is locked. */
export async function assertNotLocked(db: Kysely<Database>, keys: string[]): Promise<void> {
  const locked = await db
    .selectFrom('login_throttle')
    .select(sql<number>`extract(epoch from (max(locked_until) - now()))`.as('seconds'))
    .where('key', 'in', keys)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  const seconds = Math.ceil(Number(locked?.seconds ?? 0));
  if (seconds > 0) {
    throw new AppError('TOO_MANY_ATTEMPTS', {
      params: { n: Math.ceil(seconds / 60) },
      retryAfterSeconds: seconds,
    });
  }
}

/** Counts a failed login for the account (or unknown identifier) key and the client address. */
export async function recordLoginFailure(
  db: Kysely<Database>,
  policy: LoginLockoutConfig,
  accountKey: string,
  ip: string,
): Promise<void> {
  const stale = sql`t.window_started_at < now() - ${STREAK_RESET}`;
  const failures = sql`(case when ${stale} then 1 else t.failures + 1 end)`;
  const wait = (n: unknown) =>
    sql`least(${policy.maxMinutes}::float8, ${policy.firstMinutes}::float8 * power(2::float8, least(${n} - ${policy.afterFailures}, 30)::float8)) * interval '1 minute'`;
  await sql`
    insert into login_throttle as t (key, failures, window_started_at, locked_until)
    values (${accountKey}, 1, now(), case when 1 >= ${policy.afterFailures} then now() + ${wait(sql`1`)} end)
    on conflict (key) do update set
      failures = ${failures},
      window_started_at = case when ${stale} then now() else t.window_started_at end,
      locked_until = case when ${failures} >= ${policy.afterFailures} then now() + ${wait(failures)} else t.locked_until end
  `.execute(db);

  const window = sql`t.window_started_at < now() - make_interval(mins => ${ADDRESS_WINDOW_MINUTES})`;
  await sql`
    insert into login_throttle as t (key, failures, window_started_at, locked_until)
    values (${addressLockKey(ip)}, 1, now(), null)
    on conflict (key) do update set
      failures = case when ${window} then 1 else t.failures + 1 end,
      window_started_at = case when ${window} then now() else t.window_started_at end,
      locked_until = case
        when not ${window} and t.failures + 1 >= ${policy.failuresPerIp}
        then now() + make_interval(mins => ${ADDRESS_LOCK_MINUTES})
        else t.locked_until end
  `.execute(db);
}

/** A successful login (or an admin's unlock) clears the account's streak and lock. */
export async function clearAccountLock(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', accountLockKey(userId)).execute();
}
