import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '../../domain/errors';
import { issuesToErrors } from '../../domain/issue-errors';
import { ApiError } from './api';
import { type ErrorInfo, errorInfoFrom, translateError } from './error-text';
import i18n from './i18n';

/** A form's errors: one message for the form (shown in an Alert) and one per field. */
export interface FormErrors {
  top: ErrorInfo | null;
  fields: Record<string, ErrorInfo>;
}

export const noErrors: FormErrors = { top: null, fields: {} };

/** A zod schema's issues, whose messages are catalogue codes, in the same shape the server sends. */
export function formErrorsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FormErrors {
  const error = issuesToErrors(issues, 'VALIDATION_FAILED', isTranslatedCode);
  const fields: Record<string, ErrorInfo> = {};
  for (const [name, field] of Object.entries(error.fields))
    fields[name] = typeof field === 'string' ? { code: field } : { code: field.code, params: field.params };
  return { top: { code: error.code, params: error.params }, fields };
}

/**
 * A message that is an error code: one the app has words for (`errors.<CODE>`; every code of the catalogue
 * has them in every language, the locale test). The catalogue itself (domain/errors.ts, with its English
 * texts) stays out of the sign-in pages' chunks (issue #35).
 */
const isTranslatedCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && /^[A-Z][A-Z0-9_]*$/.test(value) && i18n.exists(`errors.${value}`);

/** A failed request's errors; transport and unexpected failures become `failureCode`. */
export function formErrorsFromError(error: unknown, failureCode: string): FormErrors {
  const top = errorInfoFrom(error, failureCode);
  const fields: Record<string, ErrorInfo> = {};
  if (error instanceof ApiError && !error.isTransport) {
    for (const [name, field] of Object.entries(error.fields)) {
      fields[name] = { code: field.code, params: field.params ?? error.params, message: field.message };
    }
  }
  return { top, fields };
}

/** A modal's message per field: the first problem of each of `fields`, translated; other fields are left out. */
type FieldTexts<F extends string> = Partial<Record<F, string>>;

const isOneOf = <F extends string>(fields: readonly F[], name: unknown): name is F =>
  typeof name === 'string' && (fields as readonly string[]).includes(name);

/**
 * The messages under a modal's fields (a FormModal's): the problems found before anything is sent, then
 * the server's. A failed request that names none of the fields is the modal's to show above its buttons.
 */
export function useModalFieldErrors<F extends string>(fields: readonly F[]) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FieldTexts<F>>({});
  return {
    errors,
    setErrors,
    /** A zod schema's issues (whose messages are catalogue codes) as messages under the fields. */
    issueTexts: (issues: readonly { path: readonly PropertyKey[]; message: string }[]) => {
      const found: FieldTexts<F> = {};
      for (const issue of issues) {
        const name = issue.path[0];
        if (isOneOf(fields, name) && !found[name]) found[name] = translateError(t, { code: issue.message });
      }
      return found;
    },
    /** Shows what was found before sending; FormModal's `validate` answer: stop (true) when anything was. */
    show: (found: FieldTexts<F>): true | null => {
      setErrors(found);
      return Object.keys(found).length > 0 ? true : null;
    },
    /**
     * Shows a failed request's field errors under their fields and keeps the modal open (FormModal's
     * `false`); rethrows one that names none of them.
     */
    showRequestError: (error: unknown): false => {
      const shown: FieldTexts<F> = {};
      if (error instanceof ApiError) {
        for (const [name, field] of Object.entries(error.fields)) {
          if (isOneOf(fields, name))
            shown[name] = translateError(t, {
              code: field.code,
              params: field.params ?? error.params,
              message: field.message,
            });
        }
      }
      if (Object.keys(shown).length === 0) throw error;
      setErrors(shown);
      return false;
    },
  };
}

/**
 * The form-level message goes in the Alert when it says something the fields do not ("Incorrect phone,
 * username or password") or asks for missing fields ("Please fill in all fields"); a field whose own code
 * is that same message is only outlined in red, so one message is never shown twice.
 */
function alertShown(errors: FormErrors): boolean {
  const top = errors.top;
  if (!top) return false;
  if (top.code.endsWith('_REQUIRED')) return true;
  return !Object.values(errors.fields).some((field) => field.code === top.code);
}

export function useFormErrors() {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const showAlert = alertShown(errors);

  const clearField = useCallback((name: string) => {
    setErrors((current) => {
      if (!current.top && !(name in current.fields)) return current;
      const { [name]: _removed, ...fields } = current.fields;
      // The form-level message stays while another field still has the same problem.
      const top = current.top;
      const keepTop = top !== null && Object.values(fields).some((f) => f.code === top.code);
      return { top: keepTop ? top : null, fields };
    });
  }, []);

  const field = useCallback(
    (name: string): string | boolean | undefined => {
      const info = errors.fields[name];
      if (!info) return undefined;
      if (showAlert && errors.top?.code === info.code) return true;
      return translateError(t, info);
    },
    [errors, showAlert, t],
  );

  return useMemo(
    () => ({
      errors,
      set: setErrors,
      clear: () => setErrors(noErrors),
      clearField,
      /** The translated form-level message, or null. */
      alert: showAlert && errors.top ? translateError(t, errors.top) : null,
      /** The `error` prop of a field: its translated message, `true` (outline only) or undefined. */
      field,
    }),
    [errors, showAlert, t, clearField, field],
  );
}
