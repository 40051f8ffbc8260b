import { z } from 'zod';
import { listQuerySchema, rejectSchema } from '../../../domain/schemas/staff';
import {
  disbursementDto,
  disbursementStatuses,
  markPaidSchema,
  staffDisbursementPage,
} from '../../../domain/schemas/wallet';
import { auditActor } from '../../audit/audit';
import { currentUser, requireStaff, requireUser } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { toDisbursementDto } from '../../lib/disbursements';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { listDisbursements } from './list-disbursements';
import { markDisbursement } from './mark-disbursement';

const payers = requireUser({ roles: ['finance', 'admin'] });
const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

export function disbursementRoutes(app: App, deps: AppDeps) {
  app.get(
    '/staff/disbursements',
    {
      preValidation: requireStaff(),
      schema: {
        tags: ['back office'],
        summary: 'Disbursements: search by name/phone, filter by status, 10 a page',
        querystring: listQuerySchema.extend({ status: z.enum(disbursementStatuses).optional() }),
        response: { 200: staffDisbursementPage, ...errorResponses },
      },
    },
    (request) => listDisbursements(deps, request.query),
  );

  const mark = (request: Parameters<typeof currentUser>[0]) => {
    const staff = currentUser(request);
    return { staff, actor: auditActor(staff, request) };
  };

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
        await markDisbursement(deps, mark(request), request.params.id, {
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
        await markDisbursement(deps, mark(request), request.params.id, {
          status: 'failed',
          reason: request.body.reason,
        }),
      ),
  );
}
