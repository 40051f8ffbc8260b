import { z } from 'zod';
import { accountClosurePage, closureListQuery } from '../../../domain/schemas/account-closures';
import {
  closeAccountResponse,
  closeAccountSchema,
  consentList,
  consentSchema,
  myDocumentList,
  privacyNoticeResponse,
} from '../../../domain/schemas/privacy';
import { storableOrNull } from '../../../domain/schemas/text';
import { meResponse } from '../../../domain/schemas/user';
import { auditActor } from '../../audit/audit';
import { currentUser, requirePermission, requirePermissionWith, sessionCookieName } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { toUserDto } from '../../lib/user-dto';
import { closeAccount } from './close-account';
import { exportMyData } from './export-my-data';
import { getPrivacyNotice } from './get-privacy-notice';
import { listAccountClosures } from './list-account-closures';
import { listConsents } from './list-consents';
import { listMyDocuments } from './list-my-documents';
import { recordConsent } from './record-consent';

/** Privacy notice and consent, the borrower's own data and account closure (issue #14, RA 10173). */
export function privacyRoutes(app: App, deps: AppDeps) {
  app.get(
    '/privacy/notice',
    {
      schema: {
        tags: ['privacy'],
        summary: 'The privacy notice in force, in every language (public: sign-up shows it)',
        response: { 200: privacyNoticeResponse },
      },
    },
    () => getPrivacyNotice(deps),
  );

  app.post(
    '/account/consent',
    {
      // Open while the consent is pending (that is what it is for) and while a password change is.
      preValidation: requirePermissionWith(
        { allowPendingConsent: true, allowPendingPasswordChange: true },
        'account.viewOwn',
      ),
      config: { inputErrorCode: 'PRIVACY_CONSENT_REQUIRED' },
      schema: {
        tags: ['privacy'],
        summary: 'Agree to the privacy notice in force',
        body: consentSchema,
        response: { 200: meResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = await recordConsent(deps, currentUser(request).id, request.body, {
        ip: storableOrNull(request.ip),
        userAgent: storableOrNull(request.headers['user-agent'] ?? null),
      });
      return { user: toUserDto(user, deps.config.privacy.noticeVersion), csrfToken: request.auth!.csrfToken };
    },
  );

  app.get(
    '/account/consents',
    {
      preValidation: requirePermission('account.viewOwn'),
      schema: {
        tags: ['privacy'],
        summary: "The borrower's consent history, newest first",
        response: { 200: consentList, ...errorResponses },
      },
    },
    (request) => listConsents(deps, currentUser(request).id),
  );

  app.get(
    '/account/documents',
    {
      preValidation: requirePermission('account.viewOwn'),
      schema: {
        tags: ['privacy'],
        summary: "The borrower's own uploaded documents (the pictures come from /api/files/:id)",
        response: { 200: myDocumentList, ...errorResponses },
      },
    },
    (request) => listMyDocuments(deps, currentUser(request).id),
  );

  app.get(
    '/account/export.zip',
    {
      preValidation: requirePermission('account.viewOwn'),
      schema: {
        tags: ['privacy'],
        summary:
          "Everything held about the borrower, as a ZIP (JSON, their documents and a README in the borrower's language), streamed",
        response: { 200: z.any().describe('application/zip'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const stream = await exportMyData(deps, currentUser(request).id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', 'attachment; filename="my-data.zip"')
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.post(
    '/account/close',
    {
      preValidation: requirePermission('account.viewOwn'),
      config: { inputErrorCode: 'CURRENT_PASSWORD_WRONG' },
      schema: {
        tags: ['privacy'],
        summary: 'Close the borrower account (refused while an application or loan is open)',
        body: closeAccountSchema,
        response: { 200: closeAccountResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const result = await closeAccount(deps, user, request.body, auditActor(user, request), {
        userAgent: storableOrNull(request.headers['user-agent'] ?? null),
      });
      reply.clearCookie(sessionCookieName(deps.config.secureCookies), { path: '/' });
      return result;
    },
  );

  app.get(
    '/staff/account-closures',
    {
      preValidation: requirePermission('accountClosures.view'),
      schema: {
        tags: ['privacy'],
        summary: 'Closed borrower accounts and when their data is anonymised, newest first',
        querystring: closureListQuery,
        response: { 200: accountClosurePage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(answerKey(request), ['account_closures', 'applications', 'users'], () =>
        listAccountClosures(deps, request.query),
      ),
  );
}
