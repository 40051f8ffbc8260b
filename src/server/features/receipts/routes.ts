import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { paymentReceiptDto, payoutReceiptDto } from '../../../domain/schemas/paying';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { pdfRoute } from '../../pdf/pdf-reply';
import { getPaymentReceipt, getPayoutReceipt, type ReceiptViewer } from './get-receipt';
import { paymentReceiptPdf, payoutReceiptPdf } from './receipt-pdf';

const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });
const pdfAnswer = 'The receipt (application/pdf), as an attachment';

/**
 * Receipts (issue #32): every payment received and every payout marked paid, as a screen (JSON) and a PDF.
 * A borrower reaches only their own loans' records (another's is "not found"); staff reach any, a read.
 */
export function receiptRoutes(app: App, deps: AppDeps) {
  const sides = [
    { prefix: '/wallet', guard: requirePermission('loan.viewOwn'), tag: 'wallet', own: true },
    { prefix: '/staff', guard: requirePermission('backOffice.view'), tag: 'back office', own: false },
  ] as const;
  for (const side of sides) {
    const viewer = (request: FastifyRequest): ReceiptViewer =>
      side.own ? { borrowerId: currentUser(request).id } : { staff: true };
    const payments = side.own ? 'payments' : 'repayments';
    const payouts = side.own ? 'payouts' : 'disbursements';
    const whose = side.own ? "one of the borrower's own loans" : 'any loan';

    app.get(
      `${side.prefix}/${payments}/:id/receipt`,
      {
        preValidation: side.guard,
        config: { inputErrorCode: 'NOT_FOUND' },
        schema: {
          tags: [side.tag],
          summary: `The receipt of a payment received on ${whose}: amount, allocation or reversal`,
          params: idParams,
          response: { 200: paymentReceiptDto, ...errorResponses },
        },
      },
      (request) => getPaymentReceipt(deps, request.params.id, viewer(request)),
    );
    pdfRoute(
      app,
      `${side.prefix}/${payments}/:id/receipt.pdf`,
      {
        guard: side.guard,
        inputErrorCode: 'NOT_FOUND',
        tag: side.tag,
        summary: `The receipt of a payment received on ${whose}, as a PDF; lang en, zh, km or fil`,
        params: idParams,
        answer: pdfAnswer,
      },
      (request, language) => paymentReceiptPdf(deps, request.params.id, viewer(request), language),
    );
    app.get(
      `${side.prefix}/${payouts}/:id/receipt`,
      {
        preValidation: side.guard,
        config: { inputErrorCode: 'NOT_FOUND' },
        schema: {
          tags: [side.tag],
          summary: `The receipt of a payout marked paid on ${whose}: amount, fee and what was sent`,
          params: idParams,
          response: { 200: payoutReceiptDto, ...errorResponses },
        },
      },
      (request) => getPayoutReceipt(deps, request.params.id, viewer(request)),
    );
    pdfRoute(
      app,
      `${side.prefix}/${payouts}/:id/receipt.pdf`,
      {
        guard: side.guard,
        inputErrorCode: 'NOT_FOUND',
        tag: side.tag,
        summary: `The receipt of a payout marked paid on ${whose}, as a PDF; lang en, zh, km or fil`,
        params: idParams,
        answer: pdfAnswer,
      },
      (request, language) => payoutReceiptPdf(deps, request.params.id, viewer(request), language),
    );
  }
}
