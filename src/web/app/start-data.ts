import type { QueryClient } from '@tanstack/react-query';
import { can } from '../../domain/permissions';
import type { UserDto } from '../../domain/schemas/user';
import { myApplicationQuery } from '../features/application/api/my-application';
import { settingsQuery } from '../lib/settings';

type StartUser = Pick<UserDto, 'role' | 'mustChangePassword' | 'privacyConsentRequired'> | null | undefined;

/**
 * Starts what the page at `pathname` will ask for, so its own queries find it under way: GET /api/settings
 * at once except on /login, /signup and /forgot-password (which do not use it), and GET
 * /api/applications/mine once `user` is a borrower headed for their loan (`/` or `/loan/*`, the step-1
 * page). Each is started only when not cached or under way yet, so calling it again is harmless.
 */
export function prefetchStartData(queryClient: QueryClient, pathname: string, user: StartUser) {
  const signInPage = pathname === '/login' || pathname === '/signup' || pathname === '/forgot-password';
  const headedForLoan = pathname === '/' || pathname === '/loan' || pathname.startsWith('/loan/');
  const borrower =
    !!user && !user.mustChangePassword && !user.privacyConsentRequired && !can(user.role, 'backOffice.view');
  if (!signInPage && !queryClient.getQueryState(settingsQuery.queryKey)) {
    void queryClient.prefetchQuery(settingsQuery);
  }
  if (borrower && headedForLoan && !queryClient.getQueryState(myApplicationQuery.queryKey)) {
    void queryClient.prefetchQuery(myApplicationQuery);
  }
}
