import type { RouteObject } from 'react-router';
import { WalletPage } from './components/wallet-page';

/** The borrower's wallet beside /loan (SPEC §2.5). */
export const walletRoutes: RouteObject[] = [{ path: 'wallet', element: <WalletPage /> }];
