import type { RouteObject } from 'react-router';
import { lazyPage, lazyPageWithPreload } from '../../components/lazy-page';

/**
 * /login, /signup and /forgot-password (SPEC §2.2–2.3), each a chunk of its own: a signed-in borrower's
 * first load carries none of the sign-in forms. Each chunk is fetched at start on its own path.
 */
export const authRoutes: RouteObject[] = [
  {
    path: 'login',
    element: lazyPage(() => import('./components/login-page').then((m) => m.LoginPage), {
      preloadOn: ['/login'],
    }),
  },
  {
    path: 'signup',
    element: lazyPage(() => import('./components/signup-page').then((m) => m.SignupPage), {
      preloadOn: ['/signup'],
    }),
  },
  {
    path: 'forgot-password',
    element: lazyPage(() => import('./components/forgot-password-page').then((m) => m.ForgotPasswordPage), {
      preloadOn: ['/forgot-password'],
    }),
  },
];

/** Shown instead of any page while a temporary password must be changed (rare: a chunk of its own). */
const changePassword = lazyPageWithPreload(() =>
  import('./components/change-password-page').then((m) => m.ChangePasswordPage),
);
export const changePasswordPage = changePassword.page;
export const preloadChangePasswordPage = changePassword.preload;

/** Shown instead of any page while a new privacy notice waits for consent (rare: a chunk of its own). */
const consent = lazyPageWithPreload(() => import('./components/consent-page').then((m) => m.ConsentPage));
export const consentPage = consent.page;
export const preloadConsentPage = consent.preload;
