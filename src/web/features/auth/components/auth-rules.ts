import { useEffect } from 'react';
import { onFirstInput } from '../../../lib/first-input';

/**
 * The signed-out forms' rules (the zod schemas of domain/schemas/auth), a chunk of their own: nothing
 * /login, /signup or /forgot-password draws needs zod, ~16 KiB gzip of each first load (issue #35). Sending
 * a code or submitting waits for them if they are not in yet.
 */
export const loadAuthRules = () => import('../../../../domain/schemas/auth');

export type AuthRules = Awaited<ReturnType<typeof loadAuthRules>>;

/** Fetches the rules at the reader's first key press, tap or click on the page. */
export function usePreloadAuthRules() {
  useEffect(() => onFirstInput(() => void loadAuthRules().catch(() => {})), []);
}
