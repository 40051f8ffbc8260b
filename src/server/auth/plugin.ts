import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { AppError } from '../../domain/errors';
import { can, type Permission } from '../../domain/permissions';
import { UNATTENDED_HEADER } from '../../domain/session-activity';
import type { AppDeps } from '../deps';
import { privacyConsentPending } from '../lib/user-dto';
import { loadSession, type SessionContext } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** A full session; null when signed out or while the second factor is still owed. */
    auth: SessionContext | null;
    /** A session waiting for its second factor (docs/decisions/017): it opens nothing but that step. */
    pendingSignIn: SessionContext | null;
  }
}

export function sessionCookieName(secure: boolean): string {
  // The __Host- prefix pins the cookie to this host and path over HTTPS.
  return secure ? '__Host-hiram_session' : 'hiram_session';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Loads the session for every /api request and defends cookie-authenticated writes against CSRF:
 * a cross-origin Origin header is refused, and a signed-in write must echo the session's CSRF token in
 * X-CSRF-Token (a synchronizer token; SameSite=Lax on the cookie is the second layer).
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps) {
  const cookieName = sessionCookieName(deps.config.secureCookies);
  const allowedOrigin = deps.config.publicUrl ? new URL(deps.config.publicUrl).origin : null;

  const requiredRoles: readonly string[] = deps.config.staffSignIn.secondFactorRequiredRoles;
  app.decorateRequest('auth', null);
  app.decorateRequest('pendingSignIn', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[cookieName];
    const attended =
      !request.routeOptions.config.unattended && request.headers[UNATTENDED_HEADER] === undefined;
    const session = token
      ? await loadSession(deps.db, deps.config.sessionSecret, token, deps.sessionCache, attended)
      : null;
    if (session) {
      session.enrolmentRequired =
        requiredRoles.includes(session.user.role) && !session.factors.totp && session.factors.passkeys === 0;
    }
    // Every route that reads request.auth sees a half-signed-in browser as signed out.
    const signedIn = session && !session.secondFactorPending ? session : null;
    request.auth = signedIn && {
      ...signedIn,
      privacyConsentPending: privacyConsentPending(signedIn.user, deps.config.privacy.noticeVersion),
    };
    request.pendingSignIn = session?.secondFactorPending ? session : null;
    if (SAFE_METHODS.has(request.method)) return;

    const origin = request.headers.origin;
    if (origin && origin !== (allowedOrigin ?? `${request.protocol}://${request.host}`)) {
      throw new AppError('CSRF_FAILED');
    }
    if (session && !request.routeOptions.config.skipCsrfToken) {
      const sent = request.headers['x-csrf-token'];
      if (sent !== session.csrfToken) throw new AppError('CSRF_FAILED');
    }
  });
  // A write may have changed what session lookups read (signed out, new password, a user deactivated, an
  // avatar): the cache is emptied once its work is done and before its answer leaves, so no request sent
  // after that answer can be served from an older read (docs/decisions/027).
  app.addHook('onSend', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    deps.sessionCache.clear();
    // The same for back-office answers (docs/decisions/030, 043): an approval is gone from the pending page
    // the moment its answer arrives. Only the answers reading a table the request changed go: once this
    // instance has heard its own commits' announcements (or, not heard in time, all of them).
    await deps.answerCache.caughtUp();
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Login and sign-up replace any session, so they need not prove the old one. */
    skipCsrfToken?: boolean;
    /** Asked by the app on its own (the live badge's stream and poll): never counts as activity. */
    unattended?: boolean;
  }
}

export interface GuardOptions {
  /** Routes a user with a temporary password may still use (me, logout, change password). */
  allowPendingPasswordChange?: boolean;
  /**
   * Routes a borrower who has not agreed to the current privacy notice may still use (me, logout, the
   * notice and consent, changing the password); every other route answers PRIVACY_RECONSENT_REQUIRED.
   */
  allowPendingConsent?: boolean;
  /**
   * Routes staff who must set up a second factor and have not yet may still use (their security page,
   * enrolment, change password, sign out everywhere).
   */
  allowPendingEnrolment?: boolean;
}

function signedIn(request: FastifyRequest, options: GuardOptions) {
  const auth = request.auth;
  if (!auth) throw new AppError(request.pendingSignIn ? 'SECOND_FACTOR_REQUIRED' : 'UNAUTHENTICATED');
  if (auth.user.must_change_password && !options.allowPendingPasswordChange) {
    throw new AppError('PASSWORD_CHANGE_REQUIRED');
  }
  if (auth.privacyConsentPending && !options.allowPendingConsent) {
    throw new AppError('PRIVACY_RECONSENT_REQUIRED');
  }
  if (auth.enrolmentRequired && !options.allowPendingEnrolment) {
    throw new AppError('SECOND_FACTOR_ENROLMENT_REQUIRED');
  }
  return auth.user;
}

/**
 * Refuses the request unless someone is signed in (any role). For the routes every user has for their own
 * account (change password); everything else guards with `requirePermission`. Used as `preValidation`, so a
 * caller without access learns nothing from input validation (docs/decisions/007).
 */
export function requireUser(options: GuardOptions = {}): preValidationAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    signedIn(request, options);
  };
}

/**
 * Refuses the request unless the signed-in user's role holds one of `actions` in the permission table
 * (src/domain/permissions.ts, SPEC §1): 401 when signed out, 403 for any other role. Several actions mean
 * "any of them" (a document: its owner's own, or any staff member's). Ownership is the use case's check.
 */
export function requirePermission(...actions: [Permission, ...Permission[]]): preValidationAsyncHookHandler {
  return requirePermissionWith({}, ...actions);
}

/** `requirePermission` for the few routes that stay open during a pending password change, privacy consent or enrolment. */
export function requirePermissionWith(
  options: GuardOptions,
  ...actions: [Permission, ...Permission[]]
): preValidationAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const user = signedIn(request, options);
    if (!actions.some((action) => can(user.role, action))) throw new AppError('FORBIDDEN');
  };
}

/** The signed-in user; only call behind requireUser. */
export function currentUser(request: FastifyRequest) {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth.user;
}
