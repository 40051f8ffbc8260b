import { z } from 'zod';
import { loanStatuses } from '../../../domain/loan/status';
import {
  loanLedgerDto,
  recordRepaymentSchema,
  reverseRepaymentSchema,
} from '../../../domain/schemas/repayments';
import { requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { staffContext } from '../../loans/staff-context';
import { getLoanLedger } from './get-loan-ledger';
import { recordRepayment } from './record-repayment';
import { reverseRepayment } from './reverse-repayment';

const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });
const outcome = z.object({ id: z.string(), loanStatus: z.enum(loanStatuses) });

export function repaymentRoutes(app: App, deps: AppDeps) {
  app.get(
    '/staff/loans/:id/ledger',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: "A loan's schedule, repayments with their allocation and reversals, and payoff today",
        params: idParams,
        response: { 200: loanLedgerDto, ...errorResponses },
      },
    },
    (request) => getLoanLedger(deps, request.params.id),
  );

  app.post(
    '/staff/loans/:id/repayments',
    {
      preValidation: requirePermission('repayment.record'),
      schema: {
        tags: ['back office'],
        summary:
          'Record money received (amount in pesos, date received, channel, reference); closes the loan when nothing is owed',
        params: idParams,
        body: recordRepaymentSchema,
        response: { 201: outcome, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await recordRepayment(deps, staffContext(request), request.params.id, request.body);
      return reply.status(201).send({ id: result.id, loanStatus: result.loanStatus });
    },
  );

  app.post(
    '/staff/repayments/:id/reverse',
    {
      preValidation: requirePermission('repayment.reverse'),
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['back office'],
        summary: 'Reverse a repayment with a reason; a closed loan that owes again returns to repayment',
        params: idParams,
        body: reverseRepaymentSchema,
        response: { 200: outcome, ...errorResponses },
      },
    },
    (request) => reverseRepayment(deps, staffContext(request), request.params.id, request.body.reason),
  );
}
