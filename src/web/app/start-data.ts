import type { QueryClient } from '@tanstack/react-query';
import { can } from '../../domain/permissions';
import type { UserDto } from '../../domain/schemas/user';
import { myApplicationQuery } from '../features/application/api/my-application';
import { offeredProductsQuery } from '../features/application/api/offered-products';
import { loadOpenLoanHome } from '../features/application/components/open-loan-home-chunk';
import { preloadChangePasswordPage, preloadConsentPage } from '../features/auth/routes';
import { privacyNoticeQuery } from '../lib/privacy-notice-query';
import { settingsQuery } from '../lib/settings';

/** Marks a request started before the session is known: its refusal says nothing about the session. */
const quiet = { startedBeforeSession: true } as const;

type StartUser = Pick<UserDto, 'role' | 'mustChangePassword' | 'privacyConsentRequired'> | null | undefined;

/**
 * The pages a signed-out reader uses, which show no amount, date or setting. src/web/boot.js repeats this
 * list and the requests below, to ask for them before the app runs: change them together.
 */
export function isSignInPath(pathname: string): boolean {
  return pathname === '/login' || pathname === '/signup' || pathname === '/forgot-password';
}

/**
 * Starts what the page at `pathname` will ask for, so its own queries find it under way: GET /api/settings
 * at once except on /login, /signup and /forgot-password (which do not use it), and GET
 * /api/applications/mine and GET /api/products on the way to `/loan` or `/loan/*` (the step-1 page) alongside the session rather
 * than after it, and on `/` once `user` turns out a borrower. Before the session is known the request is
 * `quiet`: a refusal (signed out, staff, a password to change) only leaves it failed, for the page to ask
 * again if it ever shows, instead of sending the app to re-read the session. Each is started only when not
 * cached or under way yet, so calling it again is harmless.
 */
export function prefetchStartData(queryClient: QueryClient, pathname: string, user: StartUser) {
  const signInPage = isSignInPath(pathname);
  const onLoanPath = pathname === '/loan' || pathname.startsWith('/loan/');
  const headedForLoan = pathname === '/' || onLoanPath;
  const borrower =
    !!user && !user.mustChangePassword && !user.privacyConsentRequired && !can(user.role, 'backOffice.view');
  if (!signInPage && !queryClient.getQueryState(settingsQuery.queryKey)) {
    void queryClient.prefetchQuery(settingsQuery);
  }
  // The step-1 page also needs the products offered to the borrower (docs/decisions/034), asked the same way.
  const start = <T extends { queryKey: readonly unknown[] }>(query: T, prefetch: (options: T) => void) => {
    if (queryClient.getQueryState(query.queryKey)) return;
    if (user === undefined && onLoanPath) prefetch({ ...query, meta: quiet });
    else if (borrower && headedForLoan) prefetch(query);
  };
  start(myApplicationQuery, (options) => {
    // An open application or a running loan: step 1 shows its home instead of the form (its own chunk).
    void queryClient.prefetchQuery(options).then(() => {
      const mine = queryClient.getQueryData(myApplicationQuery.queryKey);
      if (mine && !mine.canApply && mine.application) void loadOpenLoanHome().catch(() => undefined);
    });
  });
  start(offeredProductsQuery, (options) => void queryClient.prefetchQuery(options));
}

/**
 * What the path's page draws from an answer of its own, asked now (taking boot.js's early answer, which
 * src/web/boot.js starts for the same paths) for main.tsx to wait for before the first render: on /signup the
 * privacy notice, the page's largest text. Asked by the page once it rendered, it came a round trip after
 * main.js had run and was drawn in a second render (issue #35: Lighthouse's mobile LCP on /signup).
 * Resolves when it is in, or failed (the page then shows the failure with a way to try again).
 */
export function prefetchPageData(queryClient: QueryClient, pathname: string): Promise<void> {
  return pathname === '/signup' ? prefetchNotice(queryClient) : Promise.resolve();
}

/** The privacy notice, unless it is in or was asked for already (a failure is the page's to show). */
function prefetchNotice(queryClient: QueryClient): Promise<void> {
  if (queryClient.getQueryState(privacyNoticeQuery.queryKey)) return Promise.resolve();
  return queryClient.prefetchQuery(privacyNoticeQuery);
}

/**
 * What the page shown instead of every other one needs, once the session says which: the consent card's
 * chunk and the notice it shows, or the change-password page's chunk. main.tsx waits for it before the first
 * render, so the card is drawn whole rather than a spinner that its text then pushes down (issue #35);
 * SessionGate starts it again on every navigation (a new notice can be published mid-session).
 * Resolves when they are in, or failed (the page then asks again itself).
 */
export async function prefetchGateData(queryClient: QueryClient, user: StartUser): Promise<void> {
  if (!user) return;
  const pending: Promise<unknown>[] = [];
  if (user.mustChangePassword) pending.push(preloadChangePasswordPage());
  else if (user.privacyConsentRequired) {
    pending.push(preloadConsentPage(), prefetchNotice(queryClient));
  }
  await Promise.allSettled(pending);
}
