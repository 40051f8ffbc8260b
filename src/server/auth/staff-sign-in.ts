import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../domain/errors';
import type { MeResponse } from '../../domain/schemas/user';
import type { Database, User } from '../db/schema';
import type { AppDeps } from '../deps';
import { toUserDto } from '../lib/user-dto';
import { sessionCookieName } from './plugin';
import { createSession, type SessionContext } from './sessions';

/**
 * Staff sign-in (docs/decisions/017). After the password, a user with a second factor gets a session that
 * only allows the second-factor step; everyone else (and that user once the factor is given) gets a full
 * session, staff with the configured idle and absolute limits.
 */
type Factors = SessionContext['factors'];

export async function factorsOf(db: Kysely<Database>, userId: string): Promise<Factors> {
  const row = await db
    .selectNoFrom([
      sql<boolean>`exists (select 1 from user_totp where user_id = ${userId} and confirmed_at is not null)`.as(
        'totp',
      ),
      sql<number>`(select count(*) from user_passkeys where user_id = ${userId})`.as('passkeys'),
    ])
    .executeTakeFirstOrThrow();
  return { totp: row.totp, passkeys: Number(row.passkeys) };
}

const hasFactor = (factors: Factors) => factors.totp || factors.passkeys > 0;

function methodsOf(factors: Factors): ('totp' | 'passkey')[] {
  return [
    ...(factors.totp ? (['totp'] as const) : []),
    ...(factors.passkeys > 0 ? (['passkey'] as const) : []),
  ];
}

export function enrolmentRequired(deps: AppDeps, role: User['role'], factors: Factors): boolean {
  const required: readonly string[] = deps.config.staffSignIn.secondFactorRequiredRoles;
  return required.includes(role) && !hasFactor(factors);
}

export interface StartedSession {
  token: string;
  csrfToken: string;
  secondFactor?: NonNullable<MeResponse['secondFactor']>;
}

/** The session a correct password opens: full, or waiting for the second factor. */
export async function startSession(
  deps: AppDeps,
  user: User,
  meta: { ip: string | null; userAgent: string | null },
  options: { secondFactorGiven?: boolean } = {},
): Promise<StartedSession> {
  if (user.role === 'borrower') return createSession(deps.db, deps.config.sessionSecret, user, meta);
  const factors = await factorsOf(deps.db, user.id);
  if (hasFactor(factors) && !options.secondFactorGiven) {
    const session = await createSession(deps.db, deps.config.sessionSecret, user, meta, {
      secondFactorPending: true,
    });
    return { ...session, secondFactor: { status: 'pending', methods: methodsOf(factors) } };
  }
  const { idleMinutes, absoluteHours } = deps.config.staffSignIn;
  const session = await createSession(deps.db, deps.config.sessionSecret, user, meta, {
    limits: { idleMinutes, absoluteHours },
  });
  return enrolmentRequired(deps, user.role, factors)
    ? { ...session, secondFactor: { status: 'enrolmentRequired', methods: [] } }
    : session;
}

/** What GET /api/me (and every answer that carries the session) says about the browser's session. */
export function meBody(request: FastifyRequest, noticeVersion: string): MeResponse {
  const session = request.auth ?? request.pendingSignIn;
  if (!session) return { user: null, csrfToken: null };
  const body: MeResponse = { user: toUserDto(session.user, noticeVersion), csrfToken: session.csrfToken };
  if (session.secondFactorPending) {
    return { ...body, secondFactor: { status: 'pending', methods: methodsOf(session.factors) } };
  }
  if (session.enrolmentRequired)
    return { ...body, secondFactor: { status: 'enrolmentRequired', methods: [] } };
  return body;
}

export function setSessionCookie(deps: AppDeps, reply: FastifyReply, token: string): void {
  reply.setCookie(sessionCookieName(deps.config.secureCookies), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.config.secureCookies,
  });
}

/** The session waiting for its second factor; refuses when there is none (signed out or already full). */
export function pendingSignIn(request: FastifyRequest): SessionContext {
  if (!request.pendingSignIn) throw new AppError(request.auth ? 'FORBIDDEN' : 'UNAUTHENTICATED');
  return request.pendingSignIn;
}

/** After this many wrong second-factor codes within the window, the user's second factor is locked. */
export const secondFactorThrottle = { perUser: 5, windowMinutes: 15, lockMinutes: 15 } as const;

export async function assertSecondFactorNotLocked(db: Kysely<Database>, userId: string): Promise<void> {
  const row = await db
    .selectFrom('second_factor_throttle')
    .select(sql<number>`ceil(extract(epoch from (locked_until - now())) / 60)`.as('minutes'))
    .where('user_id', '=', userId)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  const minutes = Number(row?.minutes ?? 0);
  if (minutes > 0) throw new AppError('TOO_MANY_ATTEMPTS', { params: { n: minutes } });
}

/** Counts a wrong code in one atomic upsert (a new window once the old one has passed). */
export async function recordSecondFactorFailure(db: Kysely<Database>, userId: string): Promise<void> {
  const { perUser, windowMinutes, lockMinutes } = secondFactorThrottle;
  await sql`
    insert into second_factor_throttle as t (user_id, failures, window_started_at, locked_until)
    values (${userId}, 1, now(), null)
    on conflict (user_id) do update set
      failures = case when t.window_started_at < now() - make_interval(mins => ${windowMinutes}) then 1 else t.failures + 1 end,
      window_started_at = case when t.window_started_at < now() - make_interval(mins => ${windowMinutes}) then now() else t.window_started_at end,
      locked_until = case
        when t.window_started_at >= now() - make_interval(mins => ${windowMinutes}) and t.failures + 1 >= ${perUser}
        then now() + make_interval(mins => ${lockMinutes})
        else t.locked_until end
  `.execute(db);
}

export async function clearSecondFactorFailures(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('second_factor_throttle').where('user_id', '=', userId).execute();
}
