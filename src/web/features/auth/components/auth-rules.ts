import { useEffect } from 'react';
import { onFirstInput } from '../../../lib/first-input';
import { formErrorsFromError, type useFormErrors } from '../../../lib/form-errors';

/**
 * The signed-out forms' rules (the zod schemas of domain/schemas/auth), a chunk of their own: nothing
 * /login, /signup or /forgot-password draws needs zod, ~16 KiB gzip of each first load (issue #35). Sending
 * a code or submitting waits for them if they are not in yet.
 */
const loadAuthRules = () => import('../../../../domain/schemas/auth');

export type AuthRules = Awaited<ReturnType<typeof loadAuthRules>>;

/** Fetches the rules at the reader's first key press, tap or click on the page. */
export function usePreloadAuthRules() {
  useEffect(() => onFirstInput(() => void loadAuthRules().catch(() => {})), []);
}

/**
 * The rules for a submit, or null once `errors` says the form could not be sent: fetched now if they are not
 * in yet; out of reach (offline), said as a failed request of the form would say it (`failureCode`).
 */
export async function authRulesFor(
  errors: ReturnType<typeof useFormErrors>,
  failureCode: string,
): Promise<AuthRules | null> {
  try {
    return await loadAuthRules();
  } catch (error) {
    errors.set(formErrorsFromError(error, failureCode));
    return null;
  }
}
