import { z } from 'zod';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';
import { pdfResponse as pdfAnswers, pdfLanguage, sendPdf } from '../../pdf/pdf-reply';
import { getLoanStatement, getOwnStatement } from './get-statement';

const statementQuery = z.object({ lang: pdfLanguage });
const idParams = z.object({ id: z.uuid({ error: 'LOAN_NOT_FOUND' }) });
const pdfResponse = pdfAnswers('The statement of account (application/pdf), as an attachment');

export function statementRoutes(app: App, deps: AppDeps) {
  app.get(
    '/wallet/statement.pdf',
    {
      preValidation: requirePermission('loan.viewOwn'),
      schema: {
        tags: ['wallet'],
        summary:
          "Statement of account (PDF) of the borrower's latest loan that has been paid out; lang en, zh or km",
        querystring: statementQuery,
        response: pdfResponse,
      },
    },
    async (request, reply) =>
      sendPdf(reply, await getOwnStatement(deps, currentUser(request).id, request.query.lang)),
  );

  app.get(
    '/staff/loans/:id/statement.pdf',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: "A paid-out loan's statement of account (PDF); lang en, zh or km",
        params: idParams,
        querystring: statementQuery,
        response: pdfResponse,
      },
    },
    async (request, reply) =>
      sendPdf(reply, await getLoanStatement(deps, request.params.id, request.query.lang)),
  );
}
