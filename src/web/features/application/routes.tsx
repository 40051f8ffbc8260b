import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

/**
 * Children of /loan (SPEC §2.4): application (step 1) and info (step 2). Each is its own chunk: step 2
 * (pictures, signature pad, disclosure schedule) loads only when the borrower gets there.
 */
export const applicationRoutes: RouteObject[] = [
  {
    path: 'application',
    element: lazyPage(() => import('./components/step1-page').then((m) => m.Step1Page), {
      preloadOn: ['/loan', '/loan/application'],
    }),
  },
  {
    path: 'info',
    element: lazyPage(() => import('./components/step2-page').then((m) => m.Step2Page), {
      preloadOn: ['/loan/info'],
    }),
  },
];
