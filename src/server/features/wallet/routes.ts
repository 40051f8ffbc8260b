import { z } from 'zod';
import { paymentQrQuery } from '../../../domain/schemas/paying';
import {
  disbursementDto,
  walletResponse,
  withdrawalCodeRequest,
  withdrawalPreviewRequest,
  withdrawalPreviewResponse,
  withdrawalRequest,
} from '../../../domain/schemas/wallet';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { toDisbursementDto } from '../../lib/disbursements';
import { errorResponses } from '../../lib/openapi';
import { rateLimit } from '../../lib/rate-limits';
import type { App } from '../../lib/types';
import { getWallet } from './get-wallet';
import { paymentQrImage } from './payment-qr';
import { previewWithdrawalFor } from './preview-withdrawal';
import { requestWithdrawal } from './request-withdrawal';
import { sendWithdrawalCode } from './send-withdrawal-code';

const withdrawers = requirePermission('wallet.withdraw');

export function walletRoutes(app: App, deps: AppDeps) {
  app.get(
    '/wallet',
    {
      preValidation: requirePermission('loan.viewOwn'),
      schema: {
        tags: ['wallet'],
        summary: "The borrower's loan, balance, disbursements, history and repayment schedule",
        response: { 200: walletResponse, ...errorResponses },
      },
    },
    (request) => getWallet(deps, currentUser(request).id),
  );

  app.get(
    '/wallet/payment-qr/:channel',
    {
      preValidation: requirePermission('loan.viewOwn'),
      config: { inputErrorCode: 'NOT_FOUND' },
      schema: {
        tags: ['wallet'],
        summary:
          "The QR Ph code of a payment channel for the borrower's loan (the wallet's qr.payload): SVG, or PNG " +
          'to save and upload in a payment app',
        params: z.object({ channel: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, { error: 'NOT_FOUND' }) }),
        querystring: paymentQrQuery,
        response: { 200: z.any().describe('image/svg+xml or image/png'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const image = await paymentQrImage(
        deps,
        currentUser(request).id,
        request.params.channel,
        request.query.format,
      );
      reply.header('content-type', image.contentType).header('cache-control', 'no-store');
      if (image.filename) reply.header('content-disposition', `attachment; filename="${image.filename}"`);
      return reply.send(image.body);
    },
  );

  app.post(
    '/wallet/withdrawal-preview',
    {
      preValidation: withdrawers,
      config: { inputErrorCode: 'AMOUNT_INVALID' },
      schema: {
        tags: ['wallet'],
        summary:
          'What a withdrawal of this amount, paid out today, does to the payment plan (re-disclosure); ' +
          'its planDigest is what the code request must carry',
        body: withdrawalPreviewRequest,
        response: { 200: withdrawalPreviewResponse, ...errorResponses },
      },
    },
    (request) => previewWithdrawalFor(deps, currentUser(request), request.body.amount),
  );

  app.post(
    '/wallet/withdrawal-code',
    {
      preValidation: withdrawers,
      config: { inputErrorCode: 'AMOUNT_INVALID' },
      schema: {
        tags: ['wallet'],
        summary:
          "Send a withdrawal code to the borrower's phone, bound to the amount, the account and the " +
          'payment plan shown by the preview (planDigest)',
        body: withdrawalCodeRequest,
        response: {
          200: z.object({ resendAfterSeconds: z.number(), expiresInSeconds: z.number() }),
          ...errorResponses,
        },
      },
    },
    (request) => sendWithdrawalCode(deps, currentUser(request), request.body, request.ip),
  );

  app.post(
    '/wallet/withdrawals',
    {
      preValidation: [withdrawers, rateLimit(deps.db, 'withdrawals', deps.config.rateLimits.withdrawals)],
      config: { inputErrorCode: 'AMOUNT_INVALID' },
      schema: {
        tags: ['wallet'],
        summary: 'Withdraw to the loan account with the code (idempotent by idempotencyKey)',
        body: withdrawalRequest,
        response: {
          200: z.object({ disbursement: disbursementDto, replayed: z.boolean() }),
          201: z.object({ disbursement: disbursementDto, replayed: z.boolean() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await requestWithdrawal(deps, currentUser(request), request.body);
      return reply
        .status(result.replayed ? 200 : 201)
        .send({ disbursement: toDisbursementDto(result.disbursement), replayed: result.replayed });
    },
  );
}
