import { type Kysely, sql } from 'kysely';
import type { Role } from '../../domain/roles';
import { storableOrNull } from '../../domain/schemas/text';
import { preparedLookup } from '../db/prepared-statements';
import type { Database, User } from '../db/schema';
import { hmac, randomToken } from './crypto';
import type { SessionCache } from './session-cache';

/**
 * Server-side sessions: the cookie carries a random token, the database keeps only its keyed hash, so a
 * leaked table cannot be replayed. Staff sessions are shorter: they can move money; their limits come from
 * the configuration and are kept on each session row (docs/decisions/017).
 */
export const sessionPolicy = {
  borrower: { idleMinutes: 24 * 60, absoluteHours: 7 * 24 },
  staff: { idleMinutes: 30, absoluteHours: 12 },
} as const;

/** last_seen_at is written at most this often, so reads do not turn into writes on every request. */
const TOUCH_EVERY_SECONDS = 60;

function policyFor(role: Role) {
  return role === 'borrower' ? sessionPolicy.borrower : sessionPolicy.staff;
}

export interface SessionContext {
  idHash: string;
  csrfToken: string;
  user: User;
  /** Set by the auth hook: a borrower who must agree to the current privacy notice first (issue #14). */
  privacyConsentPending?: boolean;
  /** Password given, second factor still owed: the session opens only the second-factor step. */
  secondFactorPending: boolean;
  /** Which second factors the user has set up (docs/decisions/017). */
  factors: { totp: boolean; passkeys: number };
  /** Set by the auth plugin from the configuration: the role must enrol and has not yet. */
  enrolmentRequired: boolean;
}

export interface SessionOptions {
  /** Staff: the configured limits (STAFF_SESSION_IDLE_MINUTES, STAFF_SESSION_ABSOLUTE_HOURS). */
  limits?: { idleMinutes: number; absoluteHours: number };
  /** A session that only allows the second-factor step, for a few minutes. */
  secondFactorPending?: boolean;
}

/** How long the second-factor step may take after the password. */
const PENDING_MINUTES = 10;

export async function createSession(
  db: Kysely<Database>,
  secret: string,
  user: Pick<User, 'id' | 'role'>,
  meta: { ip: string | null; userAgent: string | null },
  options: SessionOptions = {},
): Promise<{ token: string; csrfToken: string }> {
  const token = randomToken();
  const csrfToken = randomToken();
  const policy = options.limits ?? policyFor(user.role);
  const lifetime = options.secondFactorPending
    ? sql<Date>`now() + make_interval(mins => ${PENDING_MINUTES})`
    : sql<Date>`now() + make_interval(hours => ${policy.absoluteHours})`;
  await db
    .insertInto('sessions')
    .values({
      id_hash: hmac(secret, token),
      user_id: user.id,
      csrf_token: csrfToken,
      expires_at: lifetime,
      idle_minutes: options.secondFactorPending ? PENDING_MINUTES : (options.limits?.idleMinutes ?? null),
      second_factor_pending: options.secondFactorPending ?? false,
      // Headers reach the database only through the domain's text rule (no NUL, no lone surrogate).
      ip: storableOrNull(meta.ip),
      user_agent: storableOrNull(meta.userAgent?.slice(0, 300)),
    })
    .execute();
  return { token, csrfToken };
}

// Every signed-in request that misses the cache runs this lookup: a named statement, planned once per
// connection. Times are measured by the database's clock, as spans, so a cached row can be aged locally.
const readSession = preparedLookup((db: Kysely<Database>, idHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.csrf_token',
      'sessions.second_factor_pending',
      'sessions.idle_minutes',
      sql<number>`extract(epoch from (now() - sessions.last_seen_at))`.as('idle_seconds'),
      sql<number>`extract(epoch from (sessions.expires_at - now()))`.as('seconds_left'),
      sql<boolean>`exists (select 1 from user_totp t where t.user_id = users.id and t.confirmed_at is not null)`.as(
        'has_totp',
      ),
      sql<number>`(select count(*) from user_passkeys p where p.user_id = users.id)`.as('passkeys'),
    ])
    .where('sessions.id_hash', '=', idHash),
);

export type SessionRow = Awaited<ReturnType<typeof readSession>>[number];

function sessionContext(idHash: string, row: SessionRow): SessionContext {
  const {
    csrf_token,
    idle_seconds,
    seconds_left,
    second_factor_pending,
    idle_minutes,
    has_totp,
    passkeys,
    ...user
  } = row;
  return {
    idHash,
    csrfToken: csrf_token,
    user,
    secondFactorPending: second_factor_pending,
    factors: { totp: has_totp, passkeys: Number(passkeys) },
    enrolmentRequired: false,
  };
}

/**
 * The session a cookie's token names, or null when there is none or it has ended (then it is deleted). With
 * a cache (docs/decisions/027), a row read moments ago answers without a round trip, as long as the session
 * needs neither its activity recorded nor ending: those are decided on a fresh read. `attended: false` (a
 * request the app made on its own: a poll, a refresh after a pushed change) checks the session without
 * counting as activity, so a screen left open still reaches its idle limit (docs/decisions/073).
 */
export async function loadSession(
  db: Kysely<Database>,
  secret: string,
  token: string,
  cache?: SessionCache<SessionRow>,
  attended = true,
): Promise<SessionContext | null> {
  const idHash = hmac(secret, token);
  const hit = cache?.get(idHash);
  if (
    hit &&
    Number(hit.row.idle_seconds) + hit.ageMs / 1000 <= TOUCH_EVERY_SECONDS &&
    Number(hit.row.seconds_left) - hit.ageMs / 1000 > 0
  ) {
    return sessionContext(idHash, hit.row);
  }
  const ticket = cache?.begin();
  const [row] = await readSession(db, idHash);
  if (!row) return null;
  const idleSeconds = Number(row.idle_seconds);
  const idleLimit = row.idle_minutes ?? policyFor(row.role).idleMinutes;
  if (Number(row.seconds_left) <= 0 || idleSeconds > idleLimit * 60 || row.status !== 'active') {
    await destroySession(db, idHash);
    return null;
  }
  let fresh = row;
  if (attended && idleSeconds > TOUCH_EVERY_SECONDS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now()` })
      .where('id_hash', '=', idHash)
      .execute();
    fresh = { ...row, idle_seconds: 0 };
  }
  // Shared by every request the cached row answers: nobody may change it.
  if (ticket) cache?.set(idHash, row.id, Object.freeze(fresh), ticket);
  return sessionContext(idHash, fresh);
}

export async function destroySession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function destroyUserSessions(
  db: Kysely<Database>,
  userId: string,
  options: { except?: string } = {},
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (options.except) query = query.where('id_hash', '!=', options.except);
  await query.execute();
}

export function sessionIdHash(secret: string, token: string): string {
  return hmac(secret, token);
}

/** Deletes expired sessions and spent codes; run periodically so the tables stay small. */
export async function pruneExpired(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', sql<Date>`now()`).execute();
  await db
    .deleteFrom('verification_codes')
    .where('created_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  await db
    .deleteFrom('login_throttle')
    .where('window_started_at', '<', sql<Date>`now() - interval '1 day'`)
    // A lock still running is kept until it ends.
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', sql<Date>`now()`)]))
    .execute();
  // Hourly ceiling windows: only the current one counts.
  await db
    .deleteFrom('rate_limit_counters')
    .where('window_start', '<', sql<Date>`now() - interval '2 hours'`)
    .execute();
}

/**
 * Whether a session is still valid, without counting as activity: a back-office tab that only listens
 * for live events must not keep an idle staff session alive forever.
 */
export async function isSessionLive(db: Kysely<Database>, idHash: string, role: Role): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(sql<boolean>`sessions.expires_at > now() and users.status = 'active'`.as('live'))
    .select(sql<number>`extract(epoch from (now() - sessions.last_seen_at))`.as('idle_seconds'))
    .select('sessions.idle_minutes')
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  return (
    !!row && row.live && Number(row.idle_seconds) <= (row.idle_minutes ?? policyFor(role).idleMinutes) * 60
  );
}
