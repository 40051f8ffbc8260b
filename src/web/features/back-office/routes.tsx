import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import { ApprovedListPage, PendingListPage } from './applications/application-list-page';
import { AuditPage } from './audit/audit-page';
import { PageHeader } from './components/shared/list-page';
import { DisbursementsPage } from './disbursements/disbursements-page';
import { ServicingPage } from './servicing/servicing-page';
import { AdminOnly } from './users/admin-only';
import { UsersPage } from './users/users-page';

// The home page draws its chart with recharts: loaded only when staff open it, never by borrowers.
const HomePage = lazy(() => import('./home/home-page').then((module) => ({ default: module.HomePage })));

/** The home page's title shows at once while its code loads. */
function HomeLoading() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('backOffice.home.title')} />
      <Center py="xl" role="status">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    </>
  );
}

/** Children of /admin (SPEC §2.7). */
export const backOfficeRoutes: RouteObject[] = [
  {
    path: 'home',
    element: (
      <Suspense fallback={<HomeLoading />}>
        <HomePage />
      </Suspense>
    ),
  },
  { path: 'pending', element: <PendingListPage /> },
  { path: 'approved', element: <ApprovedListPage /> },
  { path: 'servicing', element: <ServicingPage /> },
  { path: 'disbursements', element: <DisbursementsPage /> },
  {
    path: 'users',
    element: (
      <AdminOnly>
        <UsersPage />
      </AdminOnly>
    ),
  },
  {
    path: 'audit',
    element: (
      <AdminOnly>
        <AuditPage />
      </AdminOnly>
    ),
  },
];
