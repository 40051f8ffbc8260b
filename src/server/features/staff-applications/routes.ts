import { z } from 'zod';
import { limits } from '../../../domain/schemas/limits';
import { staffAmountInput, staffTermInput } from '../../../domain/schemas/products';
import {
  applicationPage,
  applicationProfile,
  approveSchema,
  listQuerySchema,
  reasonSchema,
  rejectSchema,
} from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { errorResponses } from '../../lib/openapi';
import { nameSearchScope, queueReads } from '../../lib/paging';
import type { App } from '../../lib/types';
import { getApplicationProfile } from '../../loans/get-application-profile';
import { updateLoanTerms } from '../../loans/update-loan-terms';
import { approveApplication, confirmApproval } from './approve-application';
import { type ApplicationQueue, listApplications } from './list-applications';
import { rejectApplication } from './reject-application';
import { withdrawTermsChange } from './withdraw-terms-change';

const deciders = requirePermission('application.decide');
/** Terms of a pending application, or the approved amount and term of a running loan. */
const termEditors = {
  pending: requirePermission('application.editTerms'),
  approved: requirePermission('loan.changeAmount'),
};
const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

export function staffApplicationRoutes(app: App, deps: AppDeps) {
  // Which amounts and terms are allowed is the loan's own product version's: checked by the use case.
  const loanTermsBody = z.object({
    amount: staffAmountInput,
    termMonths: staffTermInput,
    reason: z.string().trim().max(limits.reason, { error: 'FIELD_TOO_LONG' }).optional(),
    /** The borrower asked for this reduction: applied at once (with a reason), else proposed to them. */
    borrowerRequested: z.boolean().optional(),
  });
  for (const queue of ['pending', 'approved'] as const satisfies ApplicationQueue[]) {
    app.get(
      `/staff/applications/${queue}`,
      {
        preValidation: requirePermission('backOffice.view'),
        schema: {
          tags: ['back office'],
          summary: `${queue === 'pending' ? 'Pending' : 'Approved'} list: search by name and phone, 10 a page`,
          querystring: listQuerySchema,
          response: { 200: applicationPage, ...errorResponses },
        },
      },
      (request) =>
        deps.answerCache.get(
          answerKey(request),
          queueReads(['applications', 'terms_changes', 'users'], request.query),
          () => listApplications(deps, queue, request.query),
          nameSearchScope(request.query),
        ),
    );

    app.post(
      `/staff/applications/${queue}/:id/terms`,
      {
        preValidation: termEditors[queue],
        config: { inputErrorCode: 'LOAN_UPDATE_INVALID' },
        schema: {
          tags: ['back office'],
          summary: `Update Loan (${queue}): amount and term; unless a reduction the borrower asked for, proposed to the borrower`,
          params: idParams,
          body: loanTermsBody,
          response: { 200: applicationProfile, ...errorResponses },
        },
      },
      async (request) => {
        await updateLoanTerms(deps, staffContext(request), queue, request.params.id, request.body);
        return getApplicationProfile(deps, request.params.id);
      },
    );
  }

  app.get(
    '/staff/applications/:id',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: 'View Profile: every field, documents and balance',
        params: idParams,
        response: { 200: applicationProfile, ...errorResponses },
      },
    },
    (request) => getApplicationProfile(deps, request.params.id),
  );

  app.post(
    '/staff/applications/:id/approve',
    {
      preValidation: deciders,
      config: { inputErrorCode: 'CREDIT_SCORE_INVALID' },
      schema: {
        tags: ['back office'],
        summary: 'Approve a pending application with a credit score (default 500)',
        params: idParams,
        body: approveSchema,
        response: { 200: applicationProfile, ...errorResponses },
      },
    },
    async (request) => {
      await approveApplication(deps, staffContext(request), request.params.id, request.body.creditScore);
      return getApplicationProfile(deps, request.params.id);
    },
  );

  app.post(
    '/staff/applications/:id/reject',
    {
      preValidation: deciders,
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['back office'],
        summary: 'Reject a pending application with a reason',
        params: idParams,
        body: rejectSchema,
        response: { 200: applicationProfile, ...errorResponses },
      },
    },
    async (request) => {
      await rejectApplication(deps, staffContext(request), request.params.id, request.body.reason);
      return getApplicationProfile(deps, request.params.id);
    },
  );

  app.post(
    '/staff/applications/:id/confirm-approval',
    {
      preValidation: deciders,
      schema: {
        tags: ['back office'],
        summary: 'Four-eyes: a second officer or admin confirms the first approval (never their own)',
        params: idParams,
        response: { 200: applicationProfile, ...errorResponses },
      },
    },
    async (request) => {
      await confirmApproval(deps, staffContext(request), request.params.id);
      return getApplicationProfile(deps, request.params.id);
    },
  );

  app.post(
    '/staff/applications/:id/terms-change/withdraw',
    {
      preValidation: requirePermission('application.editTerms'),
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['back office'],
        summary: "Withdraw a change to the terms still waiting for the borrower's acceptance",
        params: idParams,
        body: z.object({ reason: reasonSchema.optional() }).default({}),
        response: { 200: applicationProfile, ...errorResponses },
      },
    },
    async (request) => {
      await withdrawTermsChange(deps, staffContext(request), request.params.id, request.body.reason ?? null);
      return getApplicationProfile(deps, request.params.id);
    },
  );
}
