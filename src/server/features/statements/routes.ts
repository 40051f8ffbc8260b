import { z } from 'zod';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';
import { pdfRoute } from '../../pdf/pdf-reply';
import { getLoanStatement, getOwnStatement } from './get-statement';

const answer = 'The statement of account (application/pdf), as an attachment';

export function statementRoutes(app: App, deps: AppDeps) {
  pdfRoute(
    app,
    '/wallet/statement.pdf',
    {
      guard: requirePermission('loan.viewOwn'),
      tag: 'wallet',
      summary:
        "Statement of account (PDF) of the borrower's latest loan that has been paid out; lang en, zh or km",
      answer,
    },
    (request, language) => getOwnStatement(deps, currentUser(request).id, language),
  );

  pdfRoute(
    app,
    '/staff/loans/:id/statement.pdf',
    {
      guard: requirePermission('backOffice.view'),
      tag: 'back office',
      summary: "A paid-out loan's statement of account (PDF); lang en, zh or km",
      params: z.object({ id: z.uuid({ error: 'LOAN_NOT_FOUND' }) }),
      answer,
    },
    (request, language) => getLoanStatement(deps, request.params.id, language),
  );
}
