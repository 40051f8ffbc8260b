import type { ErrorCode, ErrorParams, FieldErrorInput } from './errors';
import { fieldNamingCodes, isFieldKey } from './field-keys';

// Apart from ./validation.ts, with only type imports from ./errors: the web's sign-in forms read their
// schema issues with this and never need the English catalogue AppError writes its messages from (issue #35).

/** The minimal shape of a zod issue we need; kept structural so the web and server share it. */
export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

/** What schema issues say, as codes: the top-level code and params, and each field's code. */
export interface IssueErrors {
  code: ErrorCode;
  fields: Record<string, FieldErrorInput>;
  params?: ErrorParams;
}

/**
 * Reads schema issues (whose messages are error codes; `isCode` says which are) as codes: the first code per
 * field, and as the top-level code the "fill in everything" code when any field is missing, else the first
 * field's. An error that names its field ("{field} is required") carries the field's key, which every reader
 * turns into the field's name in its own language.
 */
export function issuesToErrors(
  issues: readonly IssueLike[],
  fallback: ErrorCode,
  isCode: (value: unknown) => value is ErrorCode,
  options: { topCode?: ErrorCode } = {},
): IssueErrors {
  const fields: Record<string, ErrorCode> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    const code = isCode(issue.message) ? issue.message : fallback;
    if (!(key in fields)) fields[key] = code;
  }
  const codes = Object.values(fields);
  const top = options.topCode ?? codes.find((c) => c.endsWith('_REQUIRED')) ?? codes[0] ?? fallback;
  const { _: _ignored, ...fieldOnly } = fields;
  const named: Record<string, FieldErrorInput> = {};
  for (const [key, code] of Object.entries(fieldOnly)) {
    // A nested field ("items.0.name") is named by its own key.
    const fieldKey = key.split('.').at(-1);
    named[key] = isFieldKey(fieldKey) && namesField(code) ? { code, params: { fieldKey } } : code;
  }
  // A form-level "{field} is too long" names the first field it is about.
  const about = Object.values(named).find(
    (input) => typeof input === 'object' && input.code === top && input.params?.fieldKey,
  );
  const params = typeof about === 'object' ? about.params : undefined;
  return { code: top, fields: named, ...(params ? { params } : {}) };
}

function namesField(code: string): boolean {
  return (fieldNamingCodes as readonly string[]).includes(code);
}
