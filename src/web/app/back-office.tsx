import '../lib/styles/all';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { StaffLayout } from './layouts/staff-layout';
import { backOfficeRoutes } from './staff-routes';

const backOfficeTree: RouteObject[] = [
  {
    element: <StaffLayout />,
    children: [{ index: true, element: <Navigate to="/admin/home" replace /> }, ...backOfficeRoutes],
  },
  // As anywhere else in the app: an unknown address goes home.
  { path: '*', element: <Navigate to="/" replace /> },
];

/**
 * Everything under /admin (SPEC §2.7): the staff layout and pages as routes below /admin/*, in a chunk of
 * its own that routes.tsx loads only when staff open the back office, never on a borrower's pages.
 */
export function BackOffice() {
  return useRoutes(backOfficeTree);
}
