import type { RouteObject } from 'react-router';
import { AdminHomePage } from '../admin-home/components/admin-home-page';

/** Children of /admin (SPEC §2.7). */
export const backOfficeRoutes: RouteObject[] = [{ path: 'home', element: <AdminHomePage /> }];
