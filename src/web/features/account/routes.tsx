import type { RouteObject } from 'react-router';
import { AccountPage } from './components/account-page';

/** The borrower's account page beside /loan (SPEC §2.6). */
export const accountRoutes: RouteObject[] = [{ path: 'account', element: <AccountPage /> }];
