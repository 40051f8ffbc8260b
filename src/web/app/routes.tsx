import { Suspense } from 'react';
import { Navigate, type RouteObject, useRoutes } from 'react-router';
import { LoadingScreen } from '../components/full-screen-status';
import { lazyStaffComponent } from '../components/lazy-page';
import { NotFoundPage } from '../components/not-found-page';
import { accountRoutes } from '../features/account/routes';
import { applicationRoutes } from '../features/application/routes';
import { authRoutes } from '../features/auth/routes';
import { walletRoutes } from '../features/wallet/routes';
import { BorrowerOnly, HomeRedirect, SessionGate, SignedInOnly, SignedOutOnly, StaffOnly } from './guards';
import { AuthLayout } from './layouts/auth-layout';
import { BorrowerLayout } from './layouts/borrower-layout';

// The back office (its layout, pages, libraries and strings) is a chunk of its own: borrowers never load it.
const BackOffice = lazyStaffComponent(() => import('./back-office').then((module) => module.BackOffice));
const backOffice = (
  <Suspense fallback={<LoadingScreen />}>
    <BackOffice />
  </Suspense>
);

/** The whole route tree (SPEC §2.1); main.tsx puts it in a browser router, tests in a memory router. */
export const routes: RouteObject[] = [
  {
    element: <SessionGate />,
    children: [
      {
        element: <SignedOutOnly />,
        children: [
          {
            element: <AuthLayout />,
            children: authRoutes,
          },
        ],
      },
      {
        element: <SignedInOnly />,
        children: [
          { index: true, element: <HomeRedirect /> },
          {
            element: <BorrowerOnly />,
            children: [
              {
                element: <BorrowerLayout />,
                children: [
                  {
                    path: 'loan',
                    children: [
                      { index: true, element: <Navigate to="application" replace /> },
                      ...applicationRoutes,
                      { path: '*', element: <NotFoundPage /> },
                    ],
                  },
                  ...walletRoutes,
                  ...accountRoutes,
                ],
              },
            ],
          },
          {
            path: 'admin',
            element: <StaffOnly />,
            // /admin itself (an index route: a `*` child does not match its parent's own path) and below.
            children: [
              { index: true, element: backOffice },
              { path: '*', element: backOffice },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

/**
 * The route tree in declarative mode (main.tsx puts it in a BrowserRouter, tests in a MemoryRouter): the app
 * uses no loaders or actions, and a data router (createBrowserRouter) would add ~17 KiB of gzipped JS to
 * every borrower's first load (issue #12).
 */
export function AppRoutes() {
  return useRoutes(routes);
}
