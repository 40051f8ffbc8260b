import { z } from 'zod';
import { disbursementStatuses } from '../../../domain/loan/disbursement-status';
import { listQuerySchema, rejectSchema } from '../../../domain/schemas/staff';
import {
  disbursementDestination,
  disbursementDto,
  markPaidSchema,
  staffDisbursementPage,
} from '../../../domain/schemas/wallet';
import { requirePermission } from '../../auth/plugin';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { toDisbursementDto } from '../../lib/disbursements';
import { errorResponses } from '../../lib/openapi';
import { nameSearchScope, queueReads } from '../../lib/paging';
import type { App } from '../../lib/types';
import { listDisbursements } from './list-disbursements';
import { markDisbursement } from './mark-disbursement';
import { revealDestination } from './reveal-destination';

const payers = requirePermission('disbursement.decide');
const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

export function disbursementRoutes(app: App, deps: AppDeps) {
  app.get(
    '/staff/disbursements',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: 'Disbursements: search by name/phone, filter by status, 10 a page',
        querystring: listQuerySchema.extend({ status: z.enum(disbursementStatuses).optional() }),
        response: { 200: staffDisbursementPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(
        answerKey(request),
        queueReads(['applications', 'disbursements', 'users'], request.query),
        () => listDisbursements(deps, request.query),
        nameSearchScope(request.query),
      ),
  );

  app.post(
    '/staff/disbursements/:id/paid',
    {
      preValidation: payers,
      config: { inputErrorCode: 'REFERENCE_REQUIRED' },
      schema: {
        tags: ['back office'],
        summary: 'Mark a payout paid with the transfer reference',
        params: idParams,
        body: markPaidSchema,
        response: { 200: disbursementDto, ...errorResponses },
      },
    },
    async (request) =>
      toDisbursementDto(
        await markDisbursement(deps, staffContext(request), request.params.id, {
          status: 'paid',
          reference: request.body.reference,
        }),
      ),
  );

  app.post(
    '/staff/disbursements/:id/failed',
    {
      preValidation: payers,
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['back office'],
        summary: 'Mark a payout failed with a reason; the amount becomes available again',
        params: idParams,
        body: rejectSchema,
        response: { 200: disbursementDto, ...errorResponses },
      },
    },
    async (request) =>
      toDisbursementDto(
        await markDisbursement(deps, staffContext(request), request.params.id, {
          status: 'failed',
          reason: request.body.reason,
        }),
      ),
  );

  app.post(
    '/staff/disbursements/:id/destination',
    {
      preValidation: requirePermission('disbursement.revealDestination'),
      schema: {
        tags: ['back office'],
        summary: 'The full payout account of a disbursement, to send the transfer (each reveal is audited)',
        params: idParams,
        response: { 200: disbursementDestination, ...errorResponses },
      },
    },
    async (request, reply) => {
      const destination = await revealDestination(deps, staffContext(request), request.params.id);
      // A full account number: never kept by a cache.
      return reply.header('cache-control', 'private, no-store').send(destination);
    },
  );
}
