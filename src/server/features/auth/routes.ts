import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  changePasswordSchema,
  loginSchema,
  resetForgottenPasswordSchema,
  sendPasswordResetCodeSchema,
  sendSignupCodeSchema,
  signupSchema,
} from '../../../domain/schemas/auth';
import { storableOrNull } from '../../../domain/schemas/text';
import { meResponse } from '../../../domain/schemas/user';
import { currentUser, requireUser, sessionCookieName } from '../../auth/plugin';
import { destroySession } from '../../auth/sessions';
import { meBody } from '../../auth/staff-sign-in';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import { rateLimit } from '../../lib/rate-limits';
import type { App } from '../../lib/types';
import { toUserDto } from '../../lib/user-dto';
import { changePassword } from './change-password';
import { logIn } from './log-in';
import { resetForgottenPassword } from './reset-forgotten-password';
import { sendPasswordResetCode } from './send-password-reset-code';
import { sendSignupCode } from './send-signup-code';
import { signUp } from './sign-up';

export function authRoutes(app: App, deps: AppDeps) {
  const cookieName = sessionCookieName(deps.config.secureCookies);
  const setSessionCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(cookieName, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.secureCookies,
    });

  app.get(
    '/me',
    { schema: { tags: ['auth'], summary: 'The signed-in user, or null', response: { 200: meResponse } } },
    async (request) => meBody(request, deps.config.privacy.noticeVersion),
  );

  app.post(
    '/auth/signup/code',
    {
      config: { inputErrorCode: 'SIGNUP_FIELDS_REQUIRED', skipCsrfToken: true },
      schema: {
        tags: ['auth'],
        summary: 'Send a sign-up verification code by SMS',
        body: sendSignupCodeSchema,
        response: {
          200: z.object({ resendAfterSeconds: z.number(), expiresInSeconds: z.number() }),
          ...errorResponses,
        },
      },
    },
    async (request) => sendSignupCode(deps, request.body, request.ip),
  );

  app.post(
    '/auth/signup',
    {
      config: { inputErrorCode: 'SIGNUP_FIELDS_REQUIRED', failureCode: 'SIGNUP_FAILED', skipCsrfToken: true },
      schema: {
        tags: ['auth'],
        summary: 'Create a borrower account and sign it in (the session cookie, as login sets it)',
        body: signupSchema,
        response: { 201: meResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const previous = request.auth ?? request.pendingSignIn;
      const result = await signUp(deps, request.body, {
        ip: storableOrNull(request.ip),
        userAgent: storableOrNull(request.headers['user-agent'] ?? null),
      });
      // As login: whatever session the browser had before is ended, and the new one is set.
      if (previous) await destroySession(deps.db, previous.idHash);
      setSessionCookie(reply, result.token);
      return reply.status(201).send({
        user: toUserDto(result.user, deps.config.privacy.noticeVersion),
        csrfToken: result.csrfToken,
      });
    },
  );

  app.post(
    '/auth/password-reset/code',
    {
      config: { inputErrorCode: 'SIGNUP_FIELDS_REQUIRED', skipCsrfToken: true },
      schema: {
        tags: ['auth'],
        summary:
          'Forgot password: send a reset code by SMS to the account with this phone (the same answer whether or not there is one)',
        body: sendPasswordResetCodeSchema,
        response: {
          200: z.object({ resendAfterSeconds: z.number(), expiresInSeconds: z.number() }),
          ...errorResponses,
        },
      },
    },
    async (request) => sendPasswordResetCode(deps, request.body, request.ip),
  );

  app.post(
    '/auth/password-reset',
    {
      config: { inputErrorCode: 'SIGNUP_FIELDS_REQUIRED', skipCsrfToken: true },
      schema: {
        tags: ['auth'],
        summary: 'Forgot password: set a new password with the code; every session of the account ends',
        body: resetForgottenPasswordSchema,
        response: { 200: z.object({ ok: z.literal(true) }), ...errorResponses },
      },
    },
    async (request) => {
      await resetForgottenPassword(deps, request.body, request.ip);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/login',
    {
      preValidation: rateLimit(deps.db, 'login', deps.config.rateLimits.login),
      config: { inputErrorCode: 'LOGIN_FIELDS_REQUIRED', failureCode: 'LOGIN_FAILED', skipCsrfToken: true },
      schema: {
        tags: ['auth'],
        summary: 'Log in with phone or username',
        body: loginSchema,
        response: { 200: meResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const previous = request.auth ?? request.pendingSignIn;
      const result = await logIn(deps, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      });
      // Rotate: whatever session the browser had before is ended.
      if (previous) await destroySession(deps.db, previous.idHash);
      setSessionCookie(reply, result.token);
      return {
        user: toUserDto(result.user, deps.config.privacy.noticeVersion),
        csrfToken: result.csrfToken,
        ...(result.secondFactor ? { secondFactor: result.secondFactor } : {}),
      };
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the session',
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const session = request.auth ?? request.pendingSignIn;
      if (session) await destroySession(deps.db, session.idHash);
      reply.clearCookie(cookieName, { path: '/' });
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/password',
    {
      preValidation: requireUser({
        allowPendingPasswordChange: true,
        allowPendingConsent: true,
        allowPendingEnrolment: true,
      }),
      config: { inputErrorCode: 'SIGNUP_FIELDS_REQUIRED' },
      schema: {
        tags: ['auth'],
        summary: 'Change the signed-in user password',
        body: changePasswordSchema,
        response: { 200: meResponse, ...errorResponses },
      },
    },
    async (request) => {
      currentUser(request);
      const user = await changePassword(deps, request.auth!, request.body);
      return {
        ...meBody(request, deps.config.privacy.noticeVersion),
        user: toUserDto(user, deps.config.privacy.noticeVersion),
      };
    },
  );
}
