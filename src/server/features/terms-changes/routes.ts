import { z } from 'zod';
import { acceptTermsRequest, myTermsResponse } from '../../../domain/schemas/terms';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { acceptTermsChange, declineTermsChange, sendTermsCode } from './answer-terms-change';
import { getMyTerms } from './get-my-terms';

const owner = requirePermission('loan.viewOwn');
const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });
const ok = z.object({ ok: z.literal(true) });

/** Signed terms bind (docs/decisions/018): the borrower's statements, and their answer to a proposed change. */
export function termsChangeRoutes(app: App, deps: AppDeps) {
  app.get(
    '/wallet/terms',
    {
      preValidation: owner,
      schema: {
        tags: ['wallet'],
        summary: 'The statement the borrower signed, the change waiting for them and every change accepted',
        response: { 200: myTermsResponse, ...errorResponses },
      },
    },
    (request) => getMyTerms(deps, currentUser(request).id),
  );

  app.post(
    '/wallet/terms-changes/:id/code',
    {
      preValidation: owner,
      schema: {
        tags: ['wallet'],
        summary: "Send a code to the borrower's phone to accept this proposed change",
        params: idParams,
        response: {
          200: z.object({ resendAfterSeconds: z.number(), expiresInSeconds: z.number() }),
          ...errorResponses,
        },
      },
    },
    (request) => sendTermsCode(deps, currentUser(request), request.params.id, request.ip),
  );

  app.post(
    '/wallet/terms-changes/:id/accept',
    {
      preValidation: owner,
      config: { inputErrorCode: 'CODE_REQUIRED' },
      schema: {
        tags: ['wallet'],
        summary: 'Accept a proposed change with the code: the new terms apply and bind',
        params: idParams,
        body: acceptTermsRequest,
        response: { 200: ok, ...errorResponses },
      },
    },
    async (request) => {
      await acceptTermsChange(deps, currentUser(request), request.params.id, request.body.code, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return { ok: true as const };
    },
  );

  app.post(
    '/wallet/terms-changes/:id/decline',
    {
      preValidation: owner,
      schema: {
        tags: ['wallet'],
        summary: 'Decline a proposed change: it is cancelled and the signed terms stay',
        params: idParams,
        response: { 200: ok, ...errorResponses },
      },
    },
    async (request) => {
      await declineTermsChange(deps, currentUser(request), request.params.id, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return { ok: true as const };
    },
  );
}
