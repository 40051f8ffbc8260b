import { z } from 'zod';
import {
  applicationFileFields,
  myApplicationDto,
  myApplicationResponse,
} from '../../../domain/schemas/application';
import { loanQuoteRequest } from '../../../domain/schemas/loan-request';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { latestApplicationOf, toMyApplicationDto } from '../../lib/applications';
import { readMultipart } from '../../lib/multipart';
import { errorResponses } from '../../lib/openapi';
import { rateLimit } from '../../lib/rate-limits';
import type { App } from '../../lib/types';
import { quoteForBorrower } from '../../loans/quote-loan';
import { imagePolicy } from '../../storage/images';
import { submitApplication } from './submit-application';

export function applicationRoutes(app: App, deps: AppDeps) {
  app.get(
    '/applications/mine',
    {
      preValidation: requirePermission('loan.viewOwn'),
      schema: {
        tags: ['applications'],
        summary: "The borrower's latest application and whether they may apply",
        response: { 200: myApplicationResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { application, canApply } = await latestApplicationOf(deps, currentUser(request).id);
      return { application: application ? toMyApplicationDto(application) : null, canApply };
    },
  );

  app.post(
    '/applications/quote',
    {
      preValidation: requirePermission('application.apply'),
      config: { inputErrorCode: 'FORM_HAS_ERRORS' },
      schema: {
        tags: ['applications'],
        summary:
          'Full disclosure (figures and schedule) for an amount and term under a product version offered to the borrower, with its SHA-256',
        body: loanQuoteRequest,
        response: {
          200: z.object({ disclosure: z.record(z.string(), z.unknown()), disclosureSha256: z.string() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { quote } = await quoteForBorrower(deps, currentUser(request).id, request.body);
      return {
        disclosure: quote.disclosure as unknown as Record<string, unknown>,
        disclosureSha256: quote.disclosureSha256,
      };
    },
  );

  app.post(
    '/applications',
    {
      preValidation: [
        requirePermission('application.apply'),
        rateLimit(deps.db, 'uploads', deps.config.rateLimits.uploads),
      ],
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
      const application = await submitApplication(deps, currentUser(request), form, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      return reply.status(201).send(toMyApplicationDto(application));
    },
  );
}
