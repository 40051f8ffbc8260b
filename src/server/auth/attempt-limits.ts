import { type Kysely, sql } from 'kysely';
import { AppError } from '../../domain/errors';
import type { Database } from '../db/schema';

/**
 * Limits on failed attempts at a secret (a password, a second-factor code), kept in `login_throttle` so
 * they hold across instances (issue #33). The rule: **an attempt is taken before the secret is checked**,
 * in one conditional statement, and given back only when the check succeeds. So N requests arriving at
 * the same instant can never have more secrets checked than the limit allows: the (limit + 1)-th finds the
 * key locked before any check runs, on PostgreSQL (the upsert queues on the key's row) and on PGlite alike.
 *
 * A key's `failures` counts the attempts of its streak that failed or are still being checked. The attempt
 * that reaches `limit` locks the key at once for `lockMinutes`; once a lock has ended, each further attempt
 * locks it again for twice as long as the one before, up to `maxLockMinutes`. A streak whose first attempt
 * is older than `windowMinutes` starts again.
 */
export interface AttemptLimit {
  /** e.g. `account:<user id>`, `address:<client bucket>`, `second-factor:<user id>`. */
  key: string;
  limit: number;
  windowMinutes: number;
  lockMinutes: number;
  /** The doubling stops here; the same as `lockMinutes` (the default) for a fixed lock. */
  maxLockMinutes?: number;
  /**
   * What a successful check does to the key: `clear` ends the streak (the secret's owner has proved
   * themself: an account, a second factor), `release` only gives the attempt back (an address, where a
   * success says nothing about the other attempts made from it).
   */
  onSuccess: 'clear' | 'release';
}

/** What a check is of, for counting (`hiram_credential_checks_total`) and for the tests that count them. */
export type CredentialKind = 'password' | 'second_factor' | 'code';

/**
 * How many secrets this instance has really checked, by kind: a burst of guesses shows here (and in
 * `/metrics`) whatever the answers were. Listeners are told of each check (the metrics counter).
 */
export class CredentialChecks {
  private readonly counts: Record<CredentialKind, number> = { password: 0, second_factor: 0, code: 0 };
  private readonly listeners = new Set<(kind: CredentialKind) => void>();

  checked(kind: CredentialKind): void {
    this.counts[kind] += 1;
    for (const listener of this.listeners) listener(kind);
  }

  count(kind: CredentialKind): number {
    return this.counts[kind];
  }

  onCheck(listener: (kind: CredentialKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export interface AttemptDeps {
  db: Kysely<Database>;
  credentialChecks: CredentialChecks;
}

/**
 * Takes an attempt of every limit (in the order given; a refusal gives back the ones already taken and
 * throws TOO_MANY_ATTEMPTS with Retry-After), then runs `check` once and counts it. A check that passes
 * clears or releases each key (its `onSuccess`); one that fails leaves the attempts counted; one that
 * throws gives them back (a fault of ours is not a guess) and rethrows.
 */
export async function checkWithinLimits(
  deps: AttemptDeps,
  kind: CredentialKind,
  limits: readonly AttemptLimit[],
  check: () => Promise<boolean>,
): Promise<boolean> {
  const taken: AttemptLimit[] = [];
  for (const limit of limits) {
    if (await takeAttempt(deps.db, limit)) {
      taken.push(limit);
      continue;
    }
    await giveBack(deps.db, taken);
    throw await lockedError(deps.db, limit.key);
  }
  let passed: boolean;
  try {
    deps.credentialChecks.checked(kind);
    passed = await check();
  } catch (error) {
    await giveBack(deps.db, taken);
    throw error;
  }
  if (passed) {
    for (const limit of taken) {
      if (limit.onSuccess === 'clear') await clearAttempts(deps.db, limit.key);
      else await giveBack(deps.db, [limit]);
    }
  }
  return passed;
}

/** One statement: counts the attempt and locks the key when it reaches the limit, unless it is locked. */
async function takeAttempt(db: Kysely<Database>, limit: AttemptLimit): Promise<boolean> {
  const maxLock = limit.maxLockMinutes ?? limit.lockMinutes;
  const stale = sql`t.window_started_at < now() - make_interval(mins => ${limit.windowMinutes})`;
  const attempts = sql`(case when ${stale} then 1 else t.failures + 1 end)`;
  const lockFor = (n: unknown) =>
    sql`least(${maxLock}::float8, ${limit.lockMinutes}::float8 * power(2::float8, least(${n} - ${limit.limit}, 30)::float8)) * interval '1 minute'`;
  const { rows } = await sql<{ failures: number }>`
    insert into login_throttle as t (key, failures, window_started_at, locked_until)
    values (${limit.key}, 1, now(), case when 1 >= ${limit.limit} then now() + ${lockFor(sql`1`)} end)
    on conflict (key) do update set
      failures = ${attempts},
      window_started_at = case when ${stale} then now() else t.window_started_at end,
      locked_until = case when ${attempts} >= ${limit.limit} then now() + ${lockFor(attempts)} end
    where t.locked_until is null or t.locked_until <= now()
    returning t.failures`.execute(db);
  return rows.length === 1;
}

/** Gives attempts back: the streak shrinks by one each, and a lock that no longer reaches its limit ends. */
async function giveBack(db: Kysely<Database>, limits: readonly AttemptLimit[]): Promise<void> {
  for (const limit of limits) {
    await sql`
      update login_throttle set
        failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 < ${limit.limit} then null else locked_until end
      where key = ${limit.key}`.execute(db);
  }
}

/** Ends a key's streak and lock (a success that proves the owner, or an admin's unlock). */
export async function clearAttempts(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

/** TOO_MANY_ATTEMPTS (429) with the minutes and seconds until `key`'s lock ends. */
async function lockedError(db: Kysely<Database>, key: string): Promise<AppError> {
  const row = await db
    .selectFrom('login_throttle')
    .select(sql<string>`extract(epoch from (locked_until - now()))`.as('seconds'))
    .where('key', '=', key)
    .executeTakeFirst();
  // A lock that ended between the two statements: try again in a moment.
  const seconds = Math.max(1, Math.ceil(Number(row?.seconds ?? 1)));
  return new AppError('TOO_MANY_ATTEMPTS', {
    params: { n: Math.ceil(seconds / 60) },
    retryAfterSeconds: seconds,
  });
}
