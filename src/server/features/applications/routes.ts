import { z } from 'zod';
import { loanRequestSchema } from '../../../domain/loan/terms';
import {
  applicationFileFields,
  myApplicationDto,
  myApplicationResponse,
} from '../../../domain/schemas/application';
import { currentUser, requireUser } from '../../auth/plugin';
import type { ApplicationsTable } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { readMultipart } from '../../lib/multipart';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { imagePolicy } from '../../storage/images';
import { getMyApplication } from './get-my-application';
import { quoteLoan } from './quote-loan';
import { submitApplication } from './submit-application';

const borrowerOnly = requireUser({ roles: ['borrower'] });

type ApplicationRow = { [K in keyof ApplicationsTable]: unknown } & {
  id: string;
  loan_number: string;
  status: z.infer<typeof myApplicationDto>['status'];
  status_message: string | null;
  reject_reason: string | null;
  full_name: string;
  phone: string;
  amount: number;
  approved_amount: number | null;
  term_months: number;
  monthly_rate_bp: number;
  monthly_payment: number;
  credit_score: number | null;
  bank_name: string;
  account_number: string;
  submitted_at: Date;
  decided_at: Date | null;
  disclosure: unknown;
  disclosure_sha256: string;
};

export function toMyApplicationDto(row: ApplicationRow): z.infer<typeof myApplicationDto> {
  return {
    id: row.id,
    loanNumber: row.loan_number,
    status: row.status,
    statusMessage: row.status_message,
    rejectReason: row.reject_reason,
    fullName: row.full_name,
    phone: row.phone,
    amountMinor: row.amount,
    approvedAmountMinor: row.approved_amount,
    termMonths: row.term_months,
    monthlyRateBp: row.monthly_rate_bp,
    monthlyPaymentMinor: row.monthly_payment,
    creditScore: row.credit_score,
    bankName: row.bank_name,
    accountNumberLast4: row.account_number.slice(-4),
    submittedAt: row.submitted_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    disclosure: row.disclosure as Record<string, unknown>,
    disclosureSha256: row.disclosure_sha256,
  };
}

export function applicationRoutes(app: App, deps: AppDeps) {
  app.get(
    '/applications/mine',
    {
      preHandler: borrowerOnly,
      schema: {
        tags: ['applications'],
        summary: "The borrower's latest application and whether they may apply",
        response: { 200: myApplicationResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { application, canApply } = await getMyApplication(deps, currentUser(request).id);
      return { application: application ? toMyApplicationDto(application) : null, canApply };
    },
  );

  app.post(
    '/applications/quote',
    {
      preHandler: borrowerOnly,
      config: { inputErrorCode: 'FORM_HAS_ERRORS' },
      schema: {
        tags: ['applications'],
        summary: 'Full disclosure (figures and schedule) for an amount and term, with its SHA-256',
        body: loanRequestSchema.pick({ amount: true, termMonths: true }),
        response: {
          200: z.object({ disclosure: z.record(z.string(), z.unknown()), disclosureSha256: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const quote = quoteLoan(deps, request.body);
      return {
        disclosure: quote.disclosure as unknown as Record<string, unknown>,
        disclosureSha256: quote.disclosureSha256,
      };
    },
  );

  app.post(
    '/applications',
    {
      preHandler: borrowerOnly,
      config: { failureCode: 'SUBMIT_FAILED' },
      schema: {
        tags: ['applications'],
        summary: 'Submit an application (multipart: text fields, idFront, idBack, selfie, signature)',
        consumes: ['multipart/form-data'],
        response: { 201: myApplicationDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const form = await readMultipart(
        request,
        { fileSize: imagePolicy.maxBytes, files: applicationFileFields.length, fields: 30, fieldSize: 2048 },
        { fileTooLarge: 'IMAGE_TOO_LARGE', invalid: 'SECTIONS_INCOMPLETE' },
        applicationFileFields,
      );
      const application = await submitApplication(deps, currentUser(request), form);
      return reply.status(201).send(toMyApplicationDto(application));
    },
  );
}
