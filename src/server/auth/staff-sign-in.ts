import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { AppError } from '../../domain/errors';
import type { MeResponse } from '../../domain/schemas/user';
import type { Database, User } from '../db/schema';
import type { AppDeps } from '../deps';
import { toUserDto } from '../lib/user-dto';
import type { AttemptLimit } from './attempt-limits';
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

/**
 * Wrong second-factor answers (authenticator codes, recovery codes, passkeys) per user: five within 15
 * minutes lock the step for 15 minutes. Taken before each check (issue #33); a right answer ends the streak.
 */
export const secondFactorKey = (userId: string) => `second-factor:${userId}`;

export function secondFactorLimit(userId: string): AttemptLimit {
  return { key: secondFactorKey(userId), limit: 5, windowMinutes: 15, lockMinutes: 15, onSuccess: 'clear' };
}
