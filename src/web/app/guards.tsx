import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { can, type Permission } from '../../domain/permissions';
import { ErrorScreen, LoadingScreen } from '../components/full-screen-status';
import { lazyStaffComponent } from '../components/lazy-page';
import { changePasswordPage, consentPage } from '../features/auth/routes';
import { useErrorText } from '../lib/error-text';
import { returnPathFrom, signInPath } from '../lib/return-path';
import { homePath, useCan, useSession, useSignOutReason } from '../lib/session';
import { prefetchGateData, prefetchStartData } from './start-data';

/**
 * Restores the session from the cookie (GET /api/me) before any route renders. The lender's settings do
 * not depend on who is signed in, so they are fetched alongside the session rather than after it, and so is
 * the application on a loan page (start-data.ts).
 */
export function SessionGate() {
  const session = useSession();
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  // Again on every navigation; started while rendering, as TanStack's usePrefetchQuery does (only what is
  // not cached or under way yet), so it is under way before the routes below redirect or render.
  prefetchStartData(queryClient, pathname, session.data?.user);
  void prefetchGateData(queryClient, session.data?.user);
  const errorText = useErrorText();
  if (session.isPending) return <LoadingScreen />;
  if (session.isError) {
    return (
      <ErrorScreen message={errorText(session.error, 'NETWORK')} onRetry={() => void session.refetch()} />
    );
  }
  return <Outlet />;
}

/**
 * /login, /signup and /forgot-password: a signed-in user goes to their home instead, or back to the page
 * /login's `next` names when it is one of their own (lib/return-path.ts).
 */
export function SignedOutOnly() {
  const { data } = useSession();
  const { search } = useLocation();
  if (data?.user) {
    return <Navigate to={returnPathFrom(search, data.user.role) ?? homePath(data.user)} replace />;
  }
  return <Outlet />;
}

// Staff sign-in screens (docs/decisions/017): loaded only when a staff session needs them, with the staff
// strings they show.
const SecondFactorPage = lazyStaffComponent(() =>
  import('../features/security/components/second-factor-page').then((m) => m.SecondFactorPage),
);
const EnrolmentRequiredPage = lazyStaffComponent(() =>
  import('../features/security/components/enrolment-required-page').then((m) => m.EnrolmentRequiredPage),
);

/**
 * Everything else needs a session. Staff give their second factor first; then a temporary password must be
 * changed, and staff who must use a second factor set one up, before anything else.
 */
export function SignedInOnly() {
  const { data } = useSession();
  const location = useLocation();
  const signOut = useSignOutReason();
  if (!data?.user) {
    // After a logout, plain /login. Otherwise come back here after signing in, and when the session has
    // just ended under the user, say so (issue #32); what they were typing is kept (lib/form-draft.ts).
    const to = signOut === 'logout' ? '/login' : signInPath(location, { ended: signOut === 'ended' });
    return <Navigate to={to} replace />;
  }
  if (data.secondFactor?.status === 'pending') {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <SecondFactorPage />
      </Suspense>
    );
  }
  if (data.user.mustChangePassword) return changePasswordPage;
  // A new privacy notice is agreed to before anything else (issue #14); staff are never asked.
  if (data.user.privacyConsentRequired) return consentPage;
  if (data.secondFactor?.status === 'enrolmentRequired') {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <EnrolmentRequiredPage />
      </Suspense>
    );
  }
  return <Outlet />;
}

/** `/` sends each user to their own home. */
export function HomeRedirect() {
  const { data } = useSession();
  return <Navigate to={data?.user ? homePath(data.user) : '/login'} replace />;
}

/** Borrower pages (/loan/*, /wallet, /account); staff are sent to the back office. */
export function BorrowerOnly() {
  const { data } = useSession();
  if (data?.user && can(data.user.role, 'backOffice.view')) return <Navigate to="/admin/home" replace />;
  return <Outlet />;
}

/** Back-office pages (/admin/*); borrowers are sent to their loan. */
export function StaffOnly() {
  const { data } = useSession();
  if (data?.user && !can(data.user.role, 'backOffice.view')) return <Navigate to="/loan" replace />;
  return <Outlet />;
}

/**
 * A back-office page only some staff may open (User Management, Audit Log: SPEC §1): anyone else is sent
 * to the back-office home. The server refuses their requests anyway; this avoids a broken page.
 */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const can = useCan();
  if (!can(permission)) return <Navigate to="/admin/home" replace />;
  return <>{children}</>;
}
