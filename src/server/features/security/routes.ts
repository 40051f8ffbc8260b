import { z } from 'zod';
import {
  passkeyAuthenticationSchema,
  passkeyRegistrationSchema,
  recoveryCodesResponse,
  secondFactorCodeSchema,
  securityResponse,
  totpConfirmSchema,
  totpSetupResponse,
} from '../../../domain/schemas/second-factor';
import { reactivateUserSchema } from '../../../domain/schemas/staff';
import { meResponse } from '../../../domain/schemas/user';
import { requirePermission, requirePermissionWith, requireUser, sessionCookieName } from '../../auth/plugin';
import { staffContext } from '../../auth/staff-context';
import { pendingSignIn, setSessionCookie } from '../../auth/staff-sign-in';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { toUserDto } from '../../lib/user-dto';
import { confirmTotpEnrolment } from './confirm-totp-enrolment';
import { getSecurity } from './get-security';
import {
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  registerPasskey,
  relyingParty,
  removePasskey,
} from './passkeys';
import { resetSecondFactor } from './reset-second-factor';
import { signOutEverywhere } from './sign-out-everywhere';
import { startTotpEnrolment } from './start-totp-enrolment';
import { signInWithPasskey, verifySecondFactor } from './verify-second-factor';

/** Staff's own security page stays open while they still have to set up a second factor. */
const ownSecurity = requirePermissionWith({ allowPendingEnrolment: true }, 'backOffice.view');
const ok = z.object({ ok: z.literal(true) });
const webauthnOptions = z.record(z.string(), z.unknown());
const passkeyParams = z.object({ id: z.string().min(1).max(2000) });
const userParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

/** Staff sign-in (issue #15, docs/decisions/017): second factors, the second-factor step, sign out everywhere. */
export function securityRoutes(app: App, deps: AppDeps) {
  const meta = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
  });

  app.get(
    '/account/security',
    {
      preValidation: ownSecurity,
      schema: {
        tags: ['security'],
        summary: "The signed-in staff member's second factors and open sessions",
        response: { 200: securityResponse, ...errorResponses },
      },
    },
    (request) => getSecurity(deps, request.auth!.user),
  );

  app.post(
    '/account/security/totp/setup',
    {
      preValidation: ownSecurity,
      schema: {
        tags: ['security'],
        summary: 'Start setting up an authenticator app: a new secret and its QR code (shown this once)',
        response: { 200: totpSetupResponse, ...errorResponses },
      },
    },
    (request) => startTotpEnrolment(deps, request.auth!.user),
  );

  app.post(
    '/account/security/totp/confirm',
    {
      preValidation: ownSecurity,
      config: { inputErrorCode: 'SECOND_FACTOR_CODE_REQUIRED' },
      schema: {
        tags: ['security'],
        summary: 'Confirm the authenticator app with a current code; returns ten recovery codes, shown once',
        body: totpConfirmSchema,
        response: { 200: recoveryCodesResponse, ...errorResponses },
      },
    },
    (request) => confirmTotpEnrolment(deps, staffContext(request), request.body.code),
  );

  app.post(
    '/account/security/passkeys/options',
    {
      preValidation: ownSecurity,
      schema: {
        tags: ['security'],
        summary: 'WebAuthn options to register a passkey',
        response: { 200: webauthnOptions, ...errorResponses },
      },
    },
    async (request) =>
      ({ ...(await passkeyRegistrationOptions(deps, request.auth!, relyingParty(deps, request))) }) as Record<
        string,
        unknown
      >,
  );

  app.post(
    '/account/security/passkeys',
    {
      preValidation: ownSecurity,
      config: { inputErrorCode: 'PASSKEY_INVALID' },
      schema: {
        tags: ['security'],
        summary: "Register a passkey with the browser's answer to the options",
        body: passkeyRegistrationSchema,
        response: { 201: ok, ...errorResponses },
      },
    },
    async (request, reply) => {
      await registerPasskey(
        deps,
        staffContext(request),
        request.auth!,
        relyingParty(deps, request),
        request.body,
      );
      return reply.status(201).send({ ok: true as const });
    },
  );

  app.delete(
    '/account/security/passkeys/:id',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['security'],
        summary: 'Remove one of my passkeys',
        params: passkeyParams,
        response: { 200: ok, ...errorResponses },
      },
    },
    async (request) => {
      await removePasskey(deps, staffContext(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/auth/second-factor',
    {
      config: { inputErrorCode: 'SECOND_FACTOR_CODE_REQUIRED' },
      schema: {
        tags: ['auth'],
        summary: 'Finish a staff sign-in with a TOTP code or a recovery code',
        body: secondFactorCodeSchema,
        response: { 200: meResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const pending = pendingSignIn(request);
      const session = await verifySecondFactor(deps, pending, request.body.code, meta(request));
      setSessionCookie(deps, reply, session.token);
      return {
        user: toUserDto(pending.user, deps.config.privacy.noticeVersion),
        csrfToken: session.csrfToken,
      };
    },
  );

  app.post(
    '/auth/second-factor/passkey/options',
    {
      schema: {
        tags: ['auth'],
        summary: 'WebAuthn options to finish a staff sign-in with a passkey',
        response: { 200: webauthnOptions, ...errorResponses },
      },
    },
    async (request) =>
      ({
        ...(await passkeyAuthenticationOptions(deps, pendingSignIn(request), relyingParty(deps, request))),
      }) as Record<string, unknown>,
  );

  app.post(
    '/auth/second-factor/passkey',
    {
      config: { inputErrorCode: 'PASSKEY_INVALID' },
      schema: {
        tags: ['auth'],
        summary: "Finish a staff sign-in with the passkey's answer",
        body: passkeyAuthenticationSchema,
        response: { 200: meResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const pending = pendingSignIn(request);
      const rp = relyingParty(deps, request);
      const session = await signInWithPasskey(deps, pending, rp, request.body.response, meta(request));
      setSessionCookie(deps, reply, session.token);
      return {
        user: toUserDto(pending.user, deps.config.privacy.noticeVersion),
        csrfToken: session.csrfToken,
      };
    },
  );

  app.post(
    '/auth/logout-everywhere',
    {
      preValidation: requireUser({ allowPendingPasswordChange: true, allowPendingEnrolment: true }),
      schema: {
        tags: ['auth'],
        summary: 'End every session of the signed-in user, on every device',
        response: { 200: ok, ...errorResponses },
      },
    },
    async (request, reply) => {
      await signOutEverywhere(deps, staffContext(request));
      reply.clearCookie(sessionCookieName(deps.config.secureCookies), { path: '/' });
      return { ok: true as const };
    },
  );

  app.post(
    '/admin/users/:id/reset-second-factor',
    {
      preValidation: requirePermission('users.manage'),
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['users'],
        summary: "Remove a staff member's authenticator app, recovery codes and passkeys (with a reason)",
        params: userParams,
        body: reactivateUserSchema,
        response: { 200: ok, ...errorResponses },
      },
    },
    async (request) => {
      await resetSecondFactor(deps, staffContext(request), request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );
}
