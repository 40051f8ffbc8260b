import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { RouteObject } from 'react-router';
import type { Permission } from '../../domain/permissions';
import { PageHeader } from '../components/lists/list-page';
import { InlineLoading } from '../components/load-state';
import { AccountClosuresPage } from '../features/account-closures/components/account-closures-page';
import { AuditPage } from '../features/audit-log/components/audit-page';
import { OverduePage } from '../features/collections/components/overdue-page';
import { UnappliedPage } from '../features/collections/components/unapplied-page';
import { ComplaintsPage } from '../features/complaints/components/complaints-page';
import { DisbursementsPage } from '../features/disbursements/components/disbursements-page';
import { EditProductPage, NewProductPage } from '../features/products/components/edit-product-page';
import { ProductPage } from '../features/products/components/product-page';
import { ProductsPage } from '../features/products/components/products-page';
import { ServicingPage } from '../features/servicing/components/servicing-page';
import {
  ApprovedListPage,
  PendingListPage,
} from '../features/staff-applications/components/application-list-page';
import { LoanPage } from '../features/staff-loans/components/loan-page';
import { RepaymentsPage } from '../features/staff-loans/components/repayments-page';
import { UsersPage } from '../features/users/components/users-page';
import { RequirePermission } from './guards';

const SecurityPage = lazy(() =>
  import('../features/security/components/security-page').then((module) => ({
    default: module.SecurityPage,
  })),
);

// The home page draws its chart with recharts: loaded only when staff open it, never by borrowers.
const HomePage = lazy(() =>
  import('../features/dashboard/components/home-page').then((module) => ({ default: module.HomePage })),
);

/** The home page's title shows at once while its code loads. */
function HomeLoading() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('backOffice.home.title')} />
      <InlineLoading />
    </>
  );
}

/** A back-office page only staff holding `permission` may open; the others are sent to the home page. */
function guarded(path: string, permission: Permission, page: ReactNode): RouteObject {
  return { path, element: <RequirePermission permission={permission}>{page}</RequirePermission> };
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
  { path: 'repayments', element: <RepaymentsPage /> },
  { path: 'loans/:id', element: <LoanPage /> },
  { path: 'overdue', element: <OverduePage /> },
  {
    path: 'security',
    element: (
      <Suspense fallback={<InlineLoading />}>
        <SecurityPage />
      </Suspense>
    ),
  },
  guarded('unapplied', 'unappliedPayment.view', <UnappliedPage />),
  guarded('complaints', 'complaint.handle', <ComplaintsPage />),
  guarded('users', 'users.manage', <UsersPage />),
  guarded('products', 'product.view', <ProductsPage />),
  guarded('products/new', 'product.manage', <NewProductPage />),
  guarded('products/:id', 'product.view', <ProductPage />),
  guarded('products/:id/edit', 'product.manage', <EditProductPage />),
  guarded('account-closures', 'accountClosures.view', <AccountClosuresPage />),
  guarded('audit', 'audit.view', <AuditPage />),
];
