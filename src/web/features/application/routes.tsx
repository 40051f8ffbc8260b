import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { Step1Page } from './components/step1-page';

// Step 2 (pictures, signature pad, disclosure schedule) loads only when the borrower gets there.
const Step2Page = lazy(() => import('./components/step2-page').then((m) => ({ default: m.Step2Page })));

/** Children of /loan (SPEC §2.4): application (step 1) and info (step 2). */
export const applicationRoutes: RouteObject[] = [
  { path: 'application', element: <Step1Page /> },
  {
    path: 'info',
    element: (
      <Suspense
        fallback={
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        }
      >
        <Step2Page />
      </Suspense>
    ),
  },
];
