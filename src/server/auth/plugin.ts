import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { AppError } from '../../domain/errors';
import type { Role } from '../../domain/roles';
import type { AppDeps } from '../deps';
import { loadSession, type SessionContext } from './sessions';

declare module 'fastify' {
  interface FastifyRequest {
    auth: SessionContext | null;
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

  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const token = request.cookies[cookieName];
    request.auth = token ? await loadSession(deps.db, deps.config.sessionSecret, token) : null;
    if (SAFE_METHODS.has(request.method)) return;

    const origin = request.headers.origin;
    if (origin && origin !== (allowedOrigin ?? `${request.protocol}://${request.host}`)) {
      throw new AppError('CSRF_FAILED');
    }
    if (request.auth && !request.routeOptions.config.skipCsrfToken) {
      const sent = request.headers['x-csrf-token'];
      if (sent !== request.auth.csrfToken) throw new AppError('CSRF_FAILED');
    }
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Login and sign-up replace any session, so they need not prove the old one. */
    skipCsrfToken?: boolean;
  }
}

export interface GuardOptions {
  roles?: readonly Role[];
  /** Routes a user with a temporary password may still use (me, logout, change password). */
  allowPendingPasswordChange?: boolean;
}

/**
 * Refuses the request unless a user of one of `roles` is signed in. Used as `preValidation`, so a caller
 * without access learns nothing from input validation.
 */
export function requireUser(options: GuardOptions = {}): preValidationAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const auth = request.auth;
    if (!auth) throw new AppError('UNAUTHENTICATED');
    if (auth.user.must_change_password && !options.allowPendingPasswordChange) {
      throw new AppError('PASSWORD_CHANGE_REQUIRED');
    }
    if (options.roles && !options.roles.includes(auth.user.role)) throw new AppError('FORBIDDEN');
  };
}

export const requireStaff = () => requireUser({ roles: ['officer', 'finance', 'admin'] });

/** The signed-in user; only call behind requireUser. */
export function currentUser(request: FastifyRequest) {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth.user;
}
