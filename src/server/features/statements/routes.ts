import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { getLoanStatement, getOwnStatement, type StatementPdf } from './get-statement';

const statementQuery = z.object({ lang: z.enum(['en', 'zh', 'km', 'fil']).default('en') });
const idParams = z.object({ id: z.uuid({ error: 'LOAN_NOT_FOUND' }) });
const pdfResponse = {
  200: z.any().describe('The statement of account (application/pdf), as an attachment'),
  ...errorResponses,
};

function sendPdf(reply: FastifyReply, { filename, pdf }: StatementPdf) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(pdf);
}

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
