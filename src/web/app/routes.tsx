import { Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/not-found-page';
import { accountRoutes } from '../features/account/routes';
import { applicationRoutes } from '../features/application/routes';
import { LoginPage } from '../features/auth/components/login-page';
import { SignupPage } from '../features/auth/components/signup-page';
import { walletRoutes } from '../features/wallet/routes';
import { BorrowerOnly, HomeRedirect, SessionGate, SignedInOnly, SignedOutOnly, StaffOnly } from './guards';
import { AuthLayout } from './layouts/auth-layout';
import { BorrowerLayout } from './layouts/borrower-layout';
import { StaffLayout } from './layouts/staff-layout';
import { backOfficeRoutes } from './staff-routes';

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
            children: [
              { path: 'login', element: <LoginPage /> },
              { path: 'signup', element: <SignupPage /> },
            ],
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
            children: [
              {
                element: <StaffLayout />,
                children: [{ index: true, element: <Navigate to="home" replace /> }, ...backOfficeRoutes],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
