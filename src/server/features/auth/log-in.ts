import { type Kysely, sql } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { LoginInput } from '../../../domain/schemas/auth';
import { burnPasswordCheck, verifyPassword } from '../../auth/passwords';
import { type StartedSession, startSession } from '../../auth/staff-sign-in';
import type { Database, User } from '../../db/schema';
import type { AppDeps } from '../../deps';

/** After this many failures within the window, the account (or address) is locked for the lock time. */
export const loginThrottle = {
  perAccount: 5,
  perAddress: 30,
  windowMinutes: 15,
  lockMinutes: 15,
} as const;

export interface LoginResult extends StartedSession {
  user: User;
}

export async function logIn(
  deps: AppDeps,
  input: LoginInput,
  meta: { ip: string; userAgent: string | null },
) {
  const identifier = input.identifier.toLowerCase();
  const keys = [`account:${identifier}`, `address:${meta.ip}`];
  await assertNotLocked(deps.db, keys);

  const user = await deps.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('phone', '=', identifier), eb(sql`lower(username)`, '=', identifier)]))
    .executeTakeFirst();

  const passwordOk = user ? await verifyPassword(user.password_hash, input.password) : false;
  if (!user) await burnPasswordCheck(input.password);
  if (!user || !passwordOk) {
    await recordFailure(deps.db, keys);
    throw new AppError('INVALID_CREDENTIALS');
  }
  // Only someone who knows the password learns that the account is deactivated.
  if (user.status !== 'active') throw new AppError('ACCOUNT_DEACTIVATED');

  await deps.db.deleteFrom('login_throttle').where('key', '=', keys[0]!).execute();
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

async function assertNotLocked(db: Kysely<Database>, keys: string[]) {
  const locked = await db
    .selectFrom('login_throttle')
    .select(sql<number>`ceil(extract(epoch from (max(locked_until) - now())) / 60)`.as('minutes'))
    .where('key', 'in', keys)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  const minutes = Number(locked?.minutes ?? 0);
  if (minutes > 0) throw new AppError('TOO_MANY_ATTEMPTS', { params: { n: minutes } });
}

/** Counts a failure per key in one atomic upsert, starting a new window once the old one has passed. */
async function recordFailure(db: Kysely<Database>, keys: string[]) {
  const { windowMinutes, lockMinutes } = loginThrottle;
  for (const key of keys) {
    const limit = key.startsWith('account:') ? loginThrottle.perAccount : loginThrottle.perAddress;
    await sql`
      insert into login_throttle as t (key, failures, window_started_at, locked_until)
      values (${key}, 1, now(), null)
      on conflict (key) do update set
        failures = case when t.window_started_at < now() - make_interval(mins => ${windowMinutes}) then 1 else t.failures + 1 end,
        window_started_at = case when t.window_started_at < now() - make_interval(mins => ${windowMinutes}) then now() else t.window_started_at end,
        locked_until = case
          when t.window_started_at >= now() - make_interval(mins => ${windowMinutes}) and t.failures + 1 >= ${limit}
          then now() + make_interval(mins => ${lockMinutes})
          else t.locked_until end
    `.execute(db);
  }
}
