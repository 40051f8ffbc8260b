import { Outlet } from 'react-router';
import { AuthShell } from '../../components/auth-shell';

/** /login and /signup share one background and card. */
export function AuthLayout() {
  return (
    <AuthShell>
      <Outlet />
    </AuthShell>
  );
}
