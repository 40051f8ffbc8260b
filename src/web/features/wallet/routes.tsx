import type { RouteObject } from 'react-router';
import { AccountPage } from '../account/components/account-page';
import { WalletPage } from './components/wallet-page';

/** Borrower pages beside /loan (SPEC §2.5, §2.6): wallet and account. */
export const walletRoutes: RouteObject[] = [
  { path: 'wallet', element: <WalletPage /> },
  { path: 'account', element: <AccountPage /> },
];
