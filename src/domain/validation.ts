import { AppError, type ErrorCode, isErrorCode } from './errors';
import { type IssueLike, issuesToErrors } from './issue-errors';

/**
 * Turns schema issues (whose messages are error codes) into one AppError: the first code per field, and
 * as the top-level code the "fill in everything" code when any field is missing, else the first field's
 * (./issue-errors.ts).
 */
export function issuesToAppError(
  issues: readonly IssueLike[],
  fallback: ErrorCode,
  options: { topCode?: ErrorCode } = {},
): AppError {
  const { code, fields, params } = issuesToErrors(issues, fallback, isErrorCode, options);
  return new AppError(code, { fields, ...(params ? { params } : {}) });
}
