import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { can, type Permission } from '../../domain/permissions';
import { ErrorScreen, LoadingScreen } from '../components/full-screen-status';
import { ChangePasswordPage } from '../features/auth/components/change-password-page';
import { useErrorText } from '../lib/error-text';
import { homePath, useCan, useSession } from '../lib/session';

/** Restores the session from the cookie (GET /api/me) before any route renders. */
export function SessionGate() {
  const session = useSession();
  const errorText = useErrorText();
  if (session.isPending) return <LoadingScreen />;
  if (session.isError) {
    return (
      <ErrorScreen message={errorText(session.error, 'NETWORK')} onRetry={() => void session.refetch()} />
    );
  }
  return <Outlet />;
}

/** /login and /signup: a signed-in user goes to their home instead. */
export function SignedOutOnly() {
  const { data } = useSession();
  if (data?.user) return <Navigate to={homePath(data.user)} replace />;
  return <Outlet />;
}

/** Everything else needs a session; a temporary password must be changed before anything else. */
export function SignedInOnly() {
  const { data } = useSession();
  if (!data?.user) return <Navigate to="/login" replace />;
  if (data.user.mustChangePassword) return <ChangePasswordPage />;
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
