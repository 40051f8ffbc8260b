import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../domain/errors';
import { loanStatuses } from '../../../domain/loan/status';
import {
  applyUnappliedSchema,
  paymentWebhookHeaders,
  paymentWebhookOutcome,
  paymentWebhookPayload,
  repaymentListQuery,
  repaymentsPage,
  returnUnappliedSchema,
  unappliedListQuery,
  unappliedPaymentsPage,
  unappliedStatuses,
} from '../../../domain/schemas/payments';
import {
  loanLedgerDto,
  recordRepaymentSchema,
  refundCreditSchema,
  reverseRepaymentSchema,
} from '../../../domain/schemas/repayments';
import { findUnstorableText } from '../../../domain/schemas/text';
import { requirePermission } from '../../auth/plugin';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { jsonNestsDeeperThan, jsonTooDeep, MAX_JSON_DEPTH } from '../../lib/json-body';
import { errorResponses } from '../../lib/openapi';
import { nameSearchScope } from '../../lib/paging';
import type { App } from '../../lib/types';
import { getLoanLedger } from './get-loan-ledger';
import { listRepayments } from './list-repayments';
import { receiveProviderPayment } from './receive-provider-payment';
import { recordRepayment } from './record-repayment';
import { refundCredit } from './refund-credit';
import { reverseRepayment } from './reverse-repayment';
import { applyUnappliedPayment, listUnappliedPayments, returnUnappliedPayment } from './unapplied-payments';
import { verifyPaymentWebhook } from './webhook-signature';

const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });
const outcome = z.object({ id: z.string(), loanStatus: z.enum(loanStatuses) });
const resolution = z.object({
  id: z.string(),
  status: z.enum(unappliedStatuses),
  repaymentId: z.string().nullable(),
  loanStatus: z.enum(loanStatuses).nullable(),
  /** Applied: the loan's number as stored, however it was typed. */
  loanNumber: z.string().nullable(),
});

/** The exact bytes of each webhook request: the signature covers them, not a re-serialised object. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const WEBHOOK_BODY_LIMIT = 64 * 1024;

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

  app.post(
    '/staff/loans/:id/refunds',
    {
      preValidation: requirePermission('credit.refund'),
      config: { inputErrorCode: 'REPAYMENT_AMOUNT_INVALID' },
      schema: {
        tags: ['back office'],
        summary:
          "Record money held for the borrower (received above the payoff) as sent back: amount in pesos, at most the credit held, and the transfer's reference",
        params: idParams,
        body: refundCreditSchema,
        response: { 201: z.object({ id: z.string(), creditMinor: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await refundCredit(deps, staffContext(request), request.params.id, request.body)),
  );

  app.get(
    '/staff/repayments',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: 'Repayments list: newest first; search by name, phone, loan number or payment reference',
        querystring: repaymentListQuery,
        response: { 200: repaymentsPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(
        answerKey(request),
        ['applications', 'repayment_reversals', 'repayments'],
        () => listRepayments(deps, request.query),
        nameSearchScope(request.query),
      ),
  );

  app.get(
    '/staff/unapplied-payments',
    {
      preValidation: requirePermission('unappliedPayment.view'),
      schema: {
        tags: ['back office'],
        summary:
          'Provider payments kept for finance (unknown or ambiguous reference, loan not running, conflict): open first, each open one with the loan it likely belongs to and why',
        querystring: unappliedListQuery,
        response: { 200: unappliedPaymentsPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(
        answerKey(request),
        ['applications', 'repayments', 'unapplied_payments', 'users'],
        () => listUnappliedPayments(deps, request.query.page),
      ),
  );

  app.post(
    '/staff/unapplied-payments/:id/apply',
    {
      preValidation: requirePermission('unappliedPayment.resolve'),
      schema: {
        tags: ['back office'],
        summary:
          'Apply a kept payment to a loan (its id, or its number written any way, e.g. HL26000002): it becomes a repayment',
        params: idParams,
        body: applyUnappliedSchema,
        response: { 200: resolution, ...errorResponses },
      },
    },
    (request) => applyUnappliedPayment(deps, staffContext(request), request.params.id, request.body.loan),
  );

  app.post(
    '/staff/unapplied-payments/:id/return',
    {
      preValidation: requirePermission('unappliedPayment.resolve'),
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['back office'],
        summary: 'Record that a kept payment was sent back to the payer (reason required)',
        params: idParams,
        body: returnUnappliedSchema,
        response: { 200: resolution, ...errorResponses },
      },
    },
    (request) => returnUnappliedPayment(deps, staffContext(request), request.params.id, request.body.reason),
  );

  // The provider's webhook lives in its own plugin: only here is the body read as raw bytes (kept for the
  // signature, then parsed as JSON); every other route keeps the global JSON parser.
  app.register(async (scope) => {
    const webhook = scope.withTypeProvider<ZodTypeProvider>();
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (request, body, done) => {
        rawBodies.set(request, body as Buffer);
        const text = (body as Buffer).toString('utf8');
        if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
          done(jsonTooDeep(), undefined);
          return;
        }
        try {
          done(null, JSON.parse(text));
        } catch {
          // Signature first (preValidation), then the schema refuses it as invalid.
          done(null, null);
        }
      },
    );
    webhook.post(
      '/payments/webhook',
      {
        // Authenticated by its signature, not by a session: no cookie, no CSRF token.
        config: { skipCsrfToken: true },
        preValidation: async (request) => {
          const settings = deps.config.paymentsWebhook;
          if (!settings) throw new AppError('PAYMENTS_WEBHOOK_DISABLED');
          verifyPaymentWebhook({
            secret: settings.secret,
            rawBody: rawBodies.get(request) ?? Buffer.alloc(0),
            timestamp: request.headers['x-hiram-timestamp'],
            signature: request.headers['x-hiram-signature'],
            now: deps.clock.now(),
          });
        },
        schema: {
          tags: ['payments'],
          summary:
            "Payment provider notification (HMAC-SHA256 signed). Matched to a loan by the loan number in the payment reference or memo, however written (HL26000002, hl-26-2); otherwise kept unapplied for finance. Idempotent by the provider's reference",
          description:
            'Headers: X-Hiram-Timestamp (Unix seconds; older than 5 minutes or more than 60 s ahead is refused) and X-Hiram-Signature = "sha256=" + hex HMAC-SHA256 with PAYMENTS_WEBHOOK_SECRET over "<timestamp>.<raw body>". 200 means accepted (applied or kept unapplied); a redelivery answers the same and creates nothing. 401 bad signature or timestamp; 503 when the webhook is not configured.',
          headers: paymentWebhookHeaders,
          body: paymentWebhookPayload,
          response: { 200: paymentWebhookOutcome, ...errorResponses },
        },
      },
      (request) => {
        const raw = rawBodies.get(request)?.toString('utf8') ?? '{}';
        // The payload is kept as sent (jsonb): every string in it, extra fields too, must be storable.
        if (findUnstorableText(JSON.parse(raw))) throw new AppError('TEXT_INVALID_CHARACTERS');
        return receiveProviderPayment(
          deps,
          deps.config.paymentsWebhook!.channel,
          request.body,
          raw,
          request.ip,
        );
      },
    );
  });
}
