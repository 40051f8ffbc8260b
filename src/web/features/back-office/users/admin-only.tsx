import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from '../../auth/api/session';

/**
 * User Management and the Audit Log are for admins only (SPEC §1): anyone else is sent to the back-office
 * home. The server refuses their requests anyway; this keeps the screen from showing a broken page.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  if (user.role !== 'admin') return <Navigate to="/admin/home" replace />;
  return <>{children}</>;
}
