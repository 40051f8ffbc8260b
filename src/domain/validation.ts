import { AppError, type ErrorCode, type FieldErrorInput, isErrorCode } from './errors';

/** The minimal shape of a zod issue we need; kept structural so the web and server share it. */
export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * Turns schema issues (whose messages are error codes) into one AppError: the first code per field, and
 * as the top-level code the "fill in everything" code when any field is missing, else the first field's.
 */
export function issuesToAppError(
  issues: readonly IssueLike[],
  fallback: ErrorCode,
  options: { labels?: Record<string, string>; topCode?: ErrorCode } = {},
): AppError {
  const fields: Record<string, ErrorCode> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    const code = isErrorCode(issue.message) ? issue.message : fallback;
    if (!(key in fields)) fields[key] = code;
  }
  const codes = Object.values(fields);
  const top = options.topCode ?? codes.find((c) => c.endsWith('_REQUIRED')) ?? codes[0] ?? fallback;
  const { _: _ignored, ...fieldOnly } = fields;
  const withLabels: Record<string, FieldErrorInput> = {};
  for (const [key, code] of Object.entries(fieldOnly)) {
    const label = options.labels?.[key];
    withLabels[key] = label ? { code, params: { field: label } } : code;
  }
  return new AppError(top, { fields: withLabels });
}
