import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { loadWalletStrings } from '../../lib/i18n';

/** The borrower's wallet beside /loan (SPEC §2.5), and the receipts of its payments and payouts (issue #32). */
export const walletRoutes: RouteObject[] = [
  {
    path: 'wallet',
    element: lazyPage(() => import('./components/wallet-page').then((m) => m.WalletPage), {
      preloadOn: ['/wallet'],
      strings: loadWalletStrings,
    }),
  },
  {
    path: 'wallet/receipts/:kind/:id',
    element: lazyPage(() => import('./components/receipt-page').then((m) => m.ReceiptPage), {
      strings: loadWalletStrings,
    }),
  },
];
