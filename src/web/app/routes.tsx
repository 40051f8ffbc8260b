import { Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/not-found-page';
import { AdminHomePage } from '../features/admin-home/components/admin-home-page';
import { LoginPage } from '../features/auth/components/login-page';
import { SignupPage } from '../features/auth/components/signup-page';
import { BorrowerOnly, HomeRedirect, SessionGate, SignedInOnly, SignedOutOnly, StaffOnly } from './guards';
import { AuthLayout } from './layouts/auth-layout';
import { BorrowerLayout } from './layouts/borrower-layout';
import { StaffLayout } from './layouts/staff-layout';

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
                      // Step 1 of the application (SPEC §2.4) is built by a later task.
                      { path: 'application', element: null },
                      { path: '*', element: <NotFoundPage /> },
                    ],
                  },
                  // Later: { path: 'wallet', ... } (SPEC §2.5) and { path: 'account', ... } (SPEC §2.6).
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
                children: [
                  { index: true, element: <Navigate to="home" replace /> },
                  { path: 'home', element: <AdminHomePage /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
