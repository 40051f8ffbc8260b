import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { loadWalletStrings } from '../../lib/i18n';

/** The borrower's account page beside /loan (SPEC §2.6). */
export const accountRoutes: RouteObject[] = [
  {
    path: 'account',
    element: lazyPage(() => import('./components/account-page').then((m) => m.AccountPage), {
      preloadOn: ['/account'],
      strings: loadWalletStrings,
    }),
  },
];
