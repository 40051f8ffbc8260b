import { z } from 'zod';
import { requestedAmount, requestedTerm, requestedVersion } from '../../../domain/schemas/loan-request';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';
import { pdfLanguage as lang, pdfResponse, pdfRoute, sendPdf } from '../../pdf/pdf-reply';
import {
  ownAgreementPdf,
  ownDisclosurePdf,
  quotedDisclosurePdf,
  staffAgreementPdf,
} from './get-loan-documents';

const answer = 'A PDF (application/pdf), as an attachment';

/** The step-1 figures as a query (a plain link): amount in whole pesos and term, checked like the quote. */
const quoteQuery = z.object({
  amount: requestedAmount,
  termMonths: z.coerce.number({ error: 'LOAN_TERM_NOT_OFFERED' }).pipe(requestedTerm),
  productVersionId: requestedVersion,
  lang,
});

export function loanDocumentRoutes(app: App, deps: AppDeps) {
  app.get(
    '/applications/disclosure.pdf',
    {
      preValidation: requirePermission('application.apply'),
      config: { inputErrorCode: 'FORM_HAS_ERRORS' },
      schema: {
        tags: ['applications'],
        summary: 'The disclosure statement (PDF) for an amount and term, before applying',
        querystring: quoteQuery,
        response: pdfResponse(answer),
      },
    },
    async (request, reply) => {
      const { lang: language, ...quote } = request.query;
      return sendPdf(reply, await quotedDisclosurePdf(deps, currentUser(request).id, quote, language));
    },
  );

  pdfRoute(
    app,
    '/wallet/disclosure.pdf',
    {
      guard: requirePermission('loan.viewOwn'),
      tag: 'wallet',
      summary: 'The disclosure statement the borrower signed (latest application), from the stored snapshot',
      answer,
    },
    (request, language) => ownDisclosurePdf(deps, currentUser(request).id, language),
  );

  pdfRoute(
    app,
    '/wallet/agreement.pdf',
    {
      guard: requirePermission('loan.viewOwn'),
      tag: 'wallet',
      summary: "The borrower's signed loan agreement (signature, signing time, SHA-256 of the terms)",
      answer,
    },
    (request, language) => ownAgreementPdf(deps, currentUser(request).id, language),
  );

  pdfRoute(
    app,
    '/staff/applications/:id/agreement.pdf',
    {
      guard: requirePermission('backOffice.view'),
      tag: 'back office',
      summary: "An application's signed loan agreement (PDF); a read, not audited",
      params: z.object({ id: z.uuid({ error: 'LOAN_NOT_FOUND' }) }),
      answer,
    },
    (request, language) => staffAgreementPdf(deps, request.params.id, language),
  );
}
