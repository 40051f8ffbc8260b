import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, isErrorCode } from '../../domain/errors';
import { issuesToAppError } from '../../domain/validation';
import { isBadInputDbError } from './db-errors';

/** The one code → HTTP status map. Anything not listed is a 400. */
const statusByCode: Partial<Record<ErrorCode, number>> = {
  INVALID_CREDENTIALS: 401,
  UNAUTHENTICATED: 401,
  ACCOUNT_DEACTIVATED: 403,
  FORBIDDEN: 403,
  CSRF_FAILED: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  PRIVACY_RECONSENT_REQUIRED: 403,
  PRIVACY_NOTICE_OUTDATED: 409,
  ACCOUNT_CLOSURE_APPLICATION_OPEN: 409,
  ACCOUNT_CLOSURE_LOAN_RUNNING: 409,
  ACCOUNT_CLOSURE_LOAN_OPEN: 409,
  SECOND_FACTOR_REQUIRED: 401,
  SECOND_FACTOR_ENROLMENT_REQUIRED: 403,
  TOTP_ALREADY_ENABLED: 409,
  TOTP_SETUP_EXPIRED: 409,
  NOT_FOUND: 404,
  PHONE_TAKEN: 409,
  ACTIVE_LOAN_EXISTS: 409,
  ALREADY_DECIDED: 409,
  STATUS_UNCHANGED: 409,
  STATUS_CHANGE_REFUSED: 409,
  USER_TAKEN: 409,
  CANNOT_CHANGE_SELF: 403,
  LAST_ADMIN: 409,
  USER_ALREADY_ACTIVE: 409,
  DISBURSEMENT_ALREADY_DECIDED: 409,
  REPAYMENT_REFERENCE_USED: 409,
  REPAYMENT_ALREADY_REVERSED: 409,
  UNAPPLIED_PAYMENT_RESOLVED: 409,
  COMPLAINT_NOT_FOUND: 404,
  COMPLAINT_RESOLVED: 409,
  WEBHOOK_SIGNATURE_INVALID: 401,
  WEBHOOK_TIMESTAMP_INVALID: 401,
  PAYMENTS_WEBHOOK_DISABLED: 503,
  NOT_READY: 503,
  WITHDRAWAL_PERIOD_ENDED: 409,
  WITHDRAWAL_PREVIEW_OUTDATED: 409,
  WITHDRAWAL_PLAN_CHANGED: 409,
  PAYOUT_AFTER_LAST_DUE: 409,
  LOAN_TERM_TOO_SHORT: 409,
  LOAN_NOT_REPAYING: 409,
  WITHDRAWALS_PAUSED: 409,
  LOAN_NOT_FOUND: 404,
  OWN_APPLICATION: 403,
  TERMS_CHANGE_PENDING: 409,
  TERMS_CHANGE_AWAITS_YOU: 409,
  TERMS_CHANGE_NOT_OPEN: 409,
  AWAITING_SECOND_APPROVAL: 409,
  NOT_AWAITING_SECOND_APPROVAL: 409,
  OWN_APPROVAL_CONFIRM: 403,
  TERMS_CHANGED: 409,
  PRODUCT_NOT_FOUND: 404,
  PRODUCT_CODE_TAKEN: 409,
  PRODUCT_UNCHANGED: 409,
  PRODUCT_VERSION_OUTDATED: 409,
  PRODUCT_ALREADY_RETIRED: 409,
  PRODUCT_ALREADY_ACTIVE: 409,
  PRODUCT_NOT_OFFERED: 409,
  PRODUCT_TERMS_UPDATED: 409,
  PAYLOAD_TOO_LARGE: 413,
  IMAGE_TOO_LARGE: 413,
  TOO_MANY_ATTEMPTS: 429,
  CODE_RESEND_TOO_SOON: 429,
  RATE_LIMITED: 429,
  CODE_LIMIT_REACHED: 429,
  LOGIN_FAILED: 500,
  SIGNUP_FAILED: 500,
  INTERNAL: 500,
  SUBMIT_FAILED: 500,
};

export function statusFor(code: ErrorCode): number {
  return statusByCode[code] ?? 400;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The SPEC message for this route when the body cannot be read at all (bad JSON, empty body). */
    inputErrorCode?: ErrorCode;
    /** The SPEC message for this route's unexpected failures (e.g. "Login failed. Please try again."). */
    failureCode?: ErrorCode;
  }
}

function toAppError(error: FastifyError, request: FastifyRequest): AppError | null {
  if (error instanceof AppError) return error;
  const config = request.routeOptions?.config ?? {};
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: v.instancePath.split('/').filter(Boolean),
      message: v.message ?? '',
    }));
    return issuesToAppError(issues, config.inputErrorCode ?? 'VALIDATION_FAILED');
  }
  if (isResponseSerializationError(error)) return null;
  if (isBadInputDbError(error)) {
    // The schemas should have refused this input; say so in the log, and answer as for any bad input.
    request.log.warn({ err: error }, 'the database refused the input');
    return new AppError(config.inputErrorCode ?? 'VALIDATION_FAILED');
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
  if (status === 429) return new AppError('RATE_LIMITED');
  if (status === 404) return new AppError('NOT_FOUND');
  if (status >= 400 && status < 500) return new AppError(config.inputErrorCode ?? 'VALIDATION_FAILED');
  return null;
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error, request);
  if (appError) {
    if (appError.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(appError.retryAfterSeconds));
    }
    return reply.status(statusFor(appError.code)).send(appError.toBody());
  }
  // Unexpected: log everything, tell the client nothing about internals.
  request.log.error({ err: error }, 'unhandled error');
  const code = request.routeOptions?.config?.failureCode;
  const fallback = new AppError(code && isErrorCode(code) ? code : 'INTERNAL');
  return reply.status(500).send(fallback.toBody());
}

/**
 * Errors Fastify's router raises before any route runs (a URL that is not valid percent-encoding, a path
 * parameter longer than the router allows): no route can match such a URL, so it is "not found", in the
 * usual shape. Anything else here is unexpected.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(404).send(new AppError('NOT_FOUND').toBody());
  }
  return errorHandler(error, request, reply);
}
