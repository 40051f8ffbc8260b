import type { Locator, Page } from 'playwright-core';
import { ApiSession, expectStatus } from './api';
import { runningServer } from './server';

/** The bootstrap admin's password once a test (or `adminSession`) replaced the one-time password. */
export const E2E_ADMIN_PASSWORD = 'a brand new admin pass';

export type StaffRole = 'officer' | 'finance' | 'admin';

/** Signs in as the admin, replacing the one-time password first if nobody has yet. */
export async function adminSession(): Promise<ApiSession> {
  const session = new ApiSession();
  const { username, password: oneTime } = runningServer().admin;
  const first = await session.request('POST', '/api/auth/login', { identifier: username, password: oneTime });
  if (first.status === 200) {
    const changed = await session.request('POST', '/api/auth/password', {
      currentPassword: oneTime,
      newPassword: E2E_ADMIN_PASSWORD,
      confirmPassword: E2E_ADMIN_PASSWORD,
    });
    expectStatus(changed, 200, 'replace the one-time admin password');
    return session;
  }
  await session.login(username, E2E_ADMIN_PASSWORD);
  return session;
}

let counter = 0;

export interface StaffMember {
  id: string;
  username: string;
  /** Their own password (the temporary one is already replaced), to type in the browser. */
  password: string;
  /** Signed in through the API. */
  api: ApiSession;
}

/**
 * A new staff member ready to use: created by the admin with a temporary password, which they replace at
 * their first login, and signed in through the API.
 */
export async function staffMember(role: StaffRole, phone?: string): Promise<StaffMember> {
  const admin = await adminSession();
  counter += 1;
  const username = `${role}${Date.now().toString(36)}${counter}`;
  const temporary = 'temporary pass 1';
  const password = 'staff member pass 1';
  const created = await admin.request<{ id: string }>('POST', '/api/admin/users', {
    username,
    password: temporary,
    // A Philippine mobile number (09…), as every phone field now requires; 0998… keeps staff apart from borrowers.
    phone: phone ?? `0998${String(Date.now()).slice(-6)}${counter % 10}`,
    role,
  });
  expectStatus(created, 201, `create ${role}`);
  const api = new ApiSession();
  await api.login(username, temporary);
  const changed = await api.request('POST', '/api/auth/password', {
    currentPassword: temporary,
    newPassword: password,
    confirmPassword: password,
  });
  expectStatus(changed, 200, `${role} sets their password`);
  return { id: created.body.id, username, password, api };
}

let secondOfficer: Promise<StaffMember> | null = null;

/**
 * Approves as `officer`; above the four-eyes threshold (₱100,000, docs/decisions/018) a second officer,
 * made once per test file, confirms the approval.
 */
export async function approve(officer: ApiSession, applicationId: string, creditScore = 500) {
  const response = await officer.request<{
    loanNumber: string;
    status: string;
    firstApprovedBy: string | null;
  }>('POST', `/api/staff/applications/${applicationId}/approve`, { creditScore });
  expectStatus(response, 200, 'approve');
  if (response.body.status === 'approved') return response.body;
  secondOfficer ??= staffMember('officer');
  const confirmed = await (await secondOfficer).api.request<{ loanNumber: string }>(
    'POST',
    `/api/staff/applications/${applicationId}/confirm-approval`,
  );
  expectStatus(confirmed, 200, 'confirm approval');
  return confirmed.body;
}

/** Puts an approved loan on hold (with the message the borrower sees) or releases it. */
export async function setHold(
  officer: ApiSession,
  applicationId: string,
  action: 'hold' | 'release',
  message = 'Please call our office to confirm your identity.',
) {
  const response = await officer.request('POST', `/api/staff/loans/${applicationId}/status`, {
    action,
    message: action === 'hold' ? message : '',
    reason: 'End-to-end test',
  });
  expectStatus(response, 200, `${action} loan`);
}

export async function markPaid(finance: ApiSession, disbursementId: string, reference: string) {
  const response = await finance.request('POST', `/api/staff/disbursements/${disbursementId}/paid`, {
    reference,
  });
  expectStatus(response, 200, 'mark paid');
}

export async function markFailed(finance: ApiSession, disbursementId: string, reason: string) {
  const response = await finance.request('POST', `/api/staff/disbursements/${disbursementId}/failed`, {
    reason,
  });
  expectStatus(response, 200, 'mark failed');
}

/**
 * Opens a row's "Actions" menu and picks `item`. A list refreshed by a live event just as the button is
 * clicked can swallow the click (seen once in CI on a loaded machine: the menu never opened), so the button
 * is clicked again while the item has not appeared; a menu that never opens still fails.
 */
export async function pickRowAction(page: Page, actions: Locator, item: string) {
  const entry = page.getByRole('menuitem', { name: item });
  for (let attempt = 1; ; attempt++) {
    await actions.click();
    try {
      await entry.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
  await entry.click();
}

/** A dashboard card's figure once it has loaded (the card shows a skeleton until then). */
export function loadedCard(page: Page, id: string) {
  return page.locator(`[data-testid="card-${id}-value"]:not([aria-busy="true"])`);
}

/**
 * The default loan product charges late from now on: a new version (docs/decisions/034), so the loans signed
 * after it carry the charge. LATE_CHARGE_MONTHLY_BP only seeds version 1 on an empty database.
 */
export async function chargeLateOnTheDefaultProduct(admin: ApiSession, lateChargeMonthlyBp: number) {
  type Version = { version: number; terms: Record<string, unknown> & { status?: string } };
  const list = await admin.request<{ items: { id: string; isDefault: boolean; current: Version }[] }>(
    'GET',
    '/api/staff/products',
  );
  expectStatus(list, 200, 'products');
  const product = list.body.items.find((p) => p.isDefault);
  if (!product) throw new Error('no default product');
  const { status: _status, ...terms } = product.current.terms;
  expectStatus(
    await admin.request('POST', `/api/staff/products/${product.id}/versions`, {
      basedOnVersion: product.current.version,
      terms: { ...terms, lateChargeMonthlyBp },
      reason: 'Late charge from today',
    }),
    201,
    'new product version',
  );
}
