import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Navigate, type RouteObject, useRoutes } from 'react-router';
import { expect } from 'vitest';
import { defaultLoanProduct } from '../../domain/loan/terms';
import type { PortfolioSummary } from '../../domain/schemas/portfolio';
import type { ApplicationListItem, ApplicationProfile, DashboardSummary } from '../../domain/schemas/staff';
import type { UserDto } from '../../domain/schemas/user';
import { SessionGate, SignedInOnly, StaffOnly } from '../app/guards';
import { StaffLayout } from '../app/layouts/staff-layout';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { backOfficeRoutes } from '../app/staff-routes';
import { setCsrfToken } from '../lib/api';
import { type MockTable, makeUser, mockApi, signedInMe } from './render';
import { createTestRouter, RouterProbe } from './router-probe';

// The whole staff layout renders for every page; under a loaded test run it can take over a second.
configure({ asyncUtilTimeout: 5000 });

/**
 * The back office's part of the route tree (the same guards and layout as the app), so these tests do
 * not depend on the borrower screens. `renderApp` from test/render covers the whole tree.
 */
const staffRoutes: RouteObject[] = [
  {
    element: <SessionGate />,
    children: [
      {
        element: <SignedInOnly />,
        children: [
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
      { path: 'login', element: <p>Login page</p> },
      { path: 'loan', element: <p>Borrower page</p> },
    ],
  },
];

function StaffTestRoutes() {
  return useRoutes(staffRoutes);
}

export function renderBackOffice(path: string) {
  setCsrfToken(null);
  const queryClient = createQueryClient();
  const router = createTestRouter();
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <MemoryRouter initialEntries={[path]}>
        <StaffTestRoutes />
        <RouterProbe router={router} />
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

export const officer = makeUser({
  id: '00000000-0000-4000-8000-0000000000a1',
  role: 'officer',
  username: 'olive',
  phone: '09170000001',
});
export const finance = makeUser({
  id: '00000000-0000-4000-8000-0000000000a2',
  role: 'finance',
  username: 'fiona',
  phone: '09170000002',
});
export const admin = makeUser({
  id: '00000000-0000-4000-8000-0000000000a3',
  role: 'admin',
  username: 'adele',
  phone: '09170000003',
});

let counter = 0;

export function makeListItem(overrides: Partial<ApplicationListItem> = {}): ApplicationListItem {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    loanNumber: `HL-25-${String(counter).padStart(6, '0')}`,
    fullName: 'Ana Santos',
    phone: '09171234567',
    amountMinor: 10_000_000,
    approvedAmountMinor: null,
    termMonths: 6,
    monthlyPaymentMinor: 1_785_258,
    status: 'pending',
    submittedAt: '2025-03-01T02:30:00.000Z',
    decidedAt: null,
    decidedBy: null,
    creditScore: null,
    firstApprovedBy: null,
    firstApprovedAt: null,
    termsChangePending: false,
    ...overrides,
  };
}

export function makeProfile(item: ApplicationListItem, overrides: Partial<ApplicationProfile> = {}) {
  const profile: ApplicationProfile = {
    ...item,
    borrowerId: '00000000-0000-4000-8000-0000000000b1',
    idNumber: 'ID-12345',
    companyName: 'Santos Bakery',
    position: 'Owner',
    incomeMinor: 5_000_000,
    monthlyExpenseMinor: 2_000_000,
    address: '12 Rizal St, Quezon City',
    email: null,
    proposedTerms: null,
    contactName: 'Ben Santos',
    contactPhone: '09179876543',
    contactAddress: '14 Rizal St, Quezon City',
    contactRelation: 'sibling',
    bankName: 'GCash',
    accountNumber: '09171234567001',
    monthlyRateBp: 200,
    statusMessage: null,
    rejectReason: null,
    withdrawnMinor: 0,
    availableMinor: 0,
    documents: { idFront: 'f-front', idBack: 'f-back', selfie: 'f-selfie', signature: 'f-signature' },
    disclosure: {},
    disclosureSha256: 'ab'.repeat(32),
    product: {
      code: 'personal-loan',
      version: 1,
      names: {
        en: 'Personal loan',
        fil: 'Personal na pautang',
        zh: '个人贷款',
        km: 'ប្រាក់កម្ចីផ្ទាល់ខ្លួន',
      },
      signedUnder: true,
      borrowerAmount: { ...defaultLoanProduct.borrowerAmount },
      staffAmount: { ...defaultLoanProduct.staffAmount },
      termsMonths: [...defaultLoanProduct.termsMonths],
      fourEyesThresholdMinor: 10_000_000,
    },
    ...overrides,
  };
  return profile;
}

export function pageOf<T>(items: T[], page = 1, total = items.length, totalCapped = false) {
  return { items, page, pageSize: 10, total, totalCapped, pageCount: Math.max(1, Math.ceil(total / 10)) };
}

export function makeSummary(overrides: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    registeredToday: 0,
    registeredTotal: 0,
    minLoanTodayMinor: null,
    maxLoanTodayMinor: null,
    disbursedTodayMinor: 0,
    approvedLoans: 0,
    pendingLoans: 0,
    rejectedLoans: 0,
    avgLoanMinor: null,
    totalLoans: 0,
    openComplaints: 0,
    medianResolveSeconds: null,
    timeZone: 'Asia/Manila',
    ...overrides,
  };
}

/** The home page's portfolio figures: all zero unless told. */
export function makePortfolio(overrides: Partial<PortfolioSummary> = {}): PortfolioSummary {
  return {
    asOf: '2026-11-23',
    outstandingPrincipalMinor: 0,
    collectedThisMonthMinor: 0,
    feesThisMonthMinor: 0,
    overdueLoans: 0,
    par30Bp: 0,
    ...overrides,
  };
}

/** The requests every back-office page makes: the session and the pending badge's poll. */
export function staffBase(user: UserDto = officer, pendingCount = 0) {
  return {
    'GET /api/me': signedInMe(user),
    'GET /api/staff/pending-count': { body: { count: pendingCount } },
  } satisfies MockTable;
}

/** The table row showing `text`, once it shows. */
export async function rowOf(text: string) {
  return (await screen.findByText(text)).closest('tr') as HTMLElement;
}

/** The table's column names, left to right. */
export function columnHeaders() {
  return screen.getAllByRole('columnheader').map((th) => th.textContent);
}

/** Opens a list row's "Actions" menu (components/lists/row-actions) and returns the menu. */
async function openRowActions(row: HTMLElement) {
  await userEvent.click(within(row).getByRole('button', { name: /^Actions for / }));
  return screen.findByRole('menu');
}

/** Chooses one of a row's actions from its menu. */
export async function chooseRowAction(row: HTMLElement, name: string) {
  const menu = await openRowActions(row);
  await userEvent.click(within(menu).getByRole('menuitem', { name }));
}

/** Chooses one of a row's actions and returns the dialog it opens, found by its name. */
export async function openRowDialog(row: HTMLElement, action: string, dialogName: string) {
  await chooseRowAction(row, action);
  return screen.findByRole('dialog', { name: dialogName });
}

/** The names of a row's actions ([] when it has none); the menu is closed again. */
export async function rowActionNames(row: HTMLElement): Promise<string[]> {
  if (!within(row).queryByRole('button', { name: /^Actions for / })) return [];
  const menu = await openRowActions(row);
  const names = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent ?? '');
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  return names;
}

/** A User Management row for a made-up user: no avatar or consent flag; `lockedUntil` when sign-in is locked. */
export function userRow(user: UserDto, lockedUntil: string | null = null) {
  const { avatar: _avatar, privacyConsentRequired: _consent, ...row } = user;
  return { ...row, lockedUntil };
}

/** The User Management row showing `text`, looked for in the table (the sidebar shows the signed-in username too). */
export async function userTableRow(text: string) {
  const table = await screen.findByRole('table', { name: 'User Management' });
  return (await within(table).findByText(text)).closest('tr') as HTMLElement;
}

/** Opens User Management as `admin` with `rows` listed; `more` answers the page's other requests. */
export function openUserManagement(rows: ReturnType<typeof userRow>[], more: MockTable = {}) {
  const fetchMock = mockApi({ ...staffBase(admin), 'GET /api/admin/users': { body: pageOf(rows) }, ...more });
  return { ...renderBackOffice('/admin/users'), fetchMock };
}

/**
 * Opens the pending or approved loan list as `user` (an officer unless told) with `items` listed and the
 * pending badge at `pendingCount`; `more` answers the page's other requests.
 */
export function openApplicationList(
  list: 'pending' | 'approved',
  items: ApplicationListItem[],
  more: MockTable = {},
  { user = officer, pendingCount = 0 }: { user?: UserDto; pendingCount?: number } = {},
) {
  const fetchMock = mockApi({
    ...staffBase(user, pendingCount),
    [`GET /api/staff/applications/${list}`]: { body: pageOf(items) },
    ...more,
  });
  return { ...renderBackOffice(`/admin/${list}`), fetchMock };
}
