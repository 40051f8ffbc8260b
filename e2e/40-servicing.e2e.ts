import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditExportHeader, readCsv } from '../src/server/test-support/csv';
import { type Borrower, logInInBrowser, signUpBorrower, submitApplication } from './support/borrower';
import { baseUrl, latestCode, launchBrowser, newPage, screenshot } from './support/browser';
import { adminSession, approve, E2E_ADMIN_PASSWORD, staffMember } from './support/staff';

/**
 * Loan servicing end to end (SPEC §2.7, §4, §5): hold with a message → the borrower sees it and cannot
 * withdraw → release; an admin resets the borrower's password (change forced at next login) and
 * deactivates them (login refused, the loan stays); the audit log and its CSV show all of it.
 */

let browser: Browser;
let officer: Awaited<ReturnType<typeof staffMember>>;
let borrower: Borrower;
let loanId: string;
let loanNumber: string;

const holdMessage = 'Please visit our Makati office with your original ID.';
const holdReason = 'Selfie does not match the ID; identity check needed';
const releaseReason = 'Identity confirmed in person';
const resetReason = 'Borrower lost their phone; identity checked at the branch';

beforeAll(async () => {
  browser = await launchBrowser();
  await adminSession(); // makes sure the bootstrap admin has the e2e password
  officer = await staffMember('officer');
  borrower = await signUpBorrower();
  loanId = (
    await submitApplication(borrower, {
      fullName: 'Rosa Reyes',
      amount: 150_000,
      termMonths: 12,
      accountNumber: '001234567890',
    })
  ).id;
  loanNumber = (await approve(officer.api, loanId, 540)).loanNumber;
});

afterAll(async () => {
  await browser?.close();
});

/** Opens Loan Servicing filtered to this borrower's phone and returns the loan's row. */
async function servicingRow(page: Page) {
  await page.goto(`/admin/servicing?phone=${borrower.phone}`);
  await page.getByRole('heading', { name: 'Loan Servicing' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: loanNumber });
  await row.waitFor();
  return row;
}

async function servicingAction(page: Page, action: string, dialog: string) {
  const row = await servicingRow(page);
  await row.getByRole('button', { name: `Actions for ${loanNumber}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
  const modal = page.getByRole('dialog', { name: dialog });
  await modal.waitFor();
  return modal;
}

describe('loan servicing, user management and audit in the browser', () => {
  it('an officer holds a loan with a message; the borrower sees it and cannot withdraw; the officer releases it', async () => {
    const staff = await newPage(browser, 'desktop');
    const phone = await newPage(browser, 'phone');
    try {
      await logInInBrowser(staff.page, officer.username, officer.password);
      const row = await servicingRow(staff.page);
      await expect.poll(() => row.getByText('Approved').count()).toBe(1);
      await screenshot(staff.page, 'servicing-officer-desktop');

      // The officer's menu: no bank details, no password reset.
      await row.getByRole('button', { name: `Actions for ${loanNumber}` }).click();
      await staff.page.getByRole('menuitem', { name: 'View Profile' }).waitFor();
      const items = await staff.page.getByRole('menuitem').allTextContents();
      expect(items).toEqual([
        'View Profile',
        'Change Status',
        'Change Credit Score',
        'Change Amount',
        'Message Borrower',
        'Change SMS Language',
      ]);
      await staff.page.keyboard.press('Escape');

      const hold = await servicingAction(staff.page, 'Change Status', 'Put Loan on Hold');
      await hold.getByRole('button', { name: 'Put on Hold' }).click();
      await hold.getByText('A reason is required.').waitFor();
      await hold.getByLabel('Reason').fill(holdReason);
      await hold.getByRole('button', { name: 'Put on Hold' }).click();
      await hold.getByText('A message to the borrower is required.').waitFor();
      await hold.getByLabel('Message to the borrower').fill(holdMessage);
      await screenshot(staff.page, 'servicing-hold-modal');
      await hold.getByRole('button', { name: 'Put on Hold' }).click();
      await staff.page.getByText(`Loan ${loanNumber} is on hold.`).waitFor();
      await hold.waitFor({ state: 'hidden' });
      const held = staff.page.getByRole('row').filter({ hasText: loanNumber });
      await held.getByText('On hold').waitFor();

      // The borrower's wallet (390 px): the message, and nothing to withdraw with.
      await logInInBrowser(phone.page, borrower.phone, borrower.password);
      await phone.page.goto('/wallet');
      await phone.page.getByText(`Withdrawals are paused: ${holdMessage}`).first().waitFor();
      expect(await phone.page.getByRole('button', { name: 'Send code' }).count()).toBe(0);
      await screenshot(phone.page, 'servicing-wallet-on-hold-phone');
      const refused = await borrower.api.request<{ error: { message: string } }>(
        'POST',
        '/api/wallet/withdrawal-code',
        { amount: 1000 },
      );
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.body.error.message).toBe(`Withdrawals are paused: ${holdMessage}`);

      const release = await servicingAction(staff.page, 'Change Status', 'Release Hold');
      await release.getByText(holdMessage).waitFor();
      await release.getByLabel('Reason').fill(releaseReason);
      await release.getByRole('button', { name: 'Release Hold' }).click();
      await staff.page.getByText(`The hold on loan ${loanNumber} was released.`).waitFor();
      await staff.page.getByRole('row').filter({ hasText: loanNumber }).getByText('Approved').waitFor();

      await phone.page.reload();
      await phone.page.getByRole('button', { name: 'Send code' }).waitFor();
      expect(await phone.page.getByText(`Withdrawals are paused: ${holdMessage}`).count()).toBe(0);
    } finally {
      await staff.context.close();
      await phone.context.close();
    }
  });

  it('an admin resets the borrower’s password; the borrower gets a code by SMS and chooses a new one', async () => {
    const staff = await newPage(browser, 'desktop');
    const phone = await newPage(browser, 'phone');
    try {
      await logInInBrowser(staff.page, 'admin', E2E_ADMIN_PASSWORD);
      const reset = await servicingAction(staff.page, 'Reset Password', 'Reset Borrower Password');
      await reset.getByText(/You never see the password or the code\./).waitFor();
      await reset.getByLabel('Reason').fill(resetReason);
      await reset.getByRole('button', { name: 'Reset Password' }).click();
      await staff.page
        .getByText(/was signed out and sent a code by SMS to choose a new password\./)
        .waitFor();
      await reset.waitFor({ state: 'hidden' });
      expect(await staff.page.getByRole('dialog', { name: 'Temporary Password' }).count()).toBe(0);
      await screenshot(staff.page, 'servicing-reset-password-sent');

      // The old password no longer works; the code on the borrower's phone sets a new one.
      const old = await fetch(`${baseUrl()}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ identifier: borrower.phone, password: borrower.password }),
      });
      expect(old.status).toBe(401);
      const code = await latestCode(borrower.phone);
      await phone.page.goto('/login');
      await phone.page.getByRole('link', { name: 'Forgot password?' }).click();
      await phone.page.getByLabel('Phone number', { exact: true }).fill(borrower.phone);
      await phone.page.getByLabel('Verification code').fill(code);
      const newPassword = 'rosa new pass 77';
      await phone.page.getByLabel('New password', { exact: true }).fill(newPassword);
      await phone.page.getByLabel('Confirm new password').fill(newPassword);
      await phone.page.getByRole('button', { name: 'Set New Password' }).click();
      await phone.page.waitForURL('**/login', { timeout: 5_000 });
      await logInInBrowser(phone.page, borrower.phone, newPassword);
      await phone.page.waitForURL('**/loan/**');
      borrower.password = newPassword;
    } finally {
      await staff.context.close();
      await phone.context.close();
    }
  });

  it('an admin deactivates a borrower with a loan: login is refused and the loan stays in servicing', async () => {
    const staff = await newPage(browser, 'desktop');
    const phone = await newPage(browser, 'phone');
    try {
      await logInInBrowser(staff.page, 'admin', E2E_ADMIN_PASSWORD);
      await staff.page.goto('/admin/users');
      await staff.page.getByRole('heading', { name: 'User Management' }).waitFor();
      await staff.page.getByRole('searchbox', { name: 'Phone' }).fill(borrower.phone);
      await staff.page.getByRole('searchbox', { name: 'Phone' }).press('Enter');
      const row = staff.page.getByRole('row').filter({ hasText: borrower.phone });
      await row.waitFor();
      await expect.poll(() => staff.page.getByRole('row').count()).toBe(2);
      await row.getByRole('button', { name: /^Actions for / }).click();
      await staff.page.getByRole('menuitem', { name: 'Delete' }).click();
      const confirm = staff.page.getByRole('dialog', { name: 'Delete User' });
      await confirm.getByText(`Are you sure you want to delete ${borrower.phone}?`).waitFor();
      await screenshot(staff.page, 'users-delete-confirm');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await staff.page
        .getByText(`${borrower.phone} owns records, so the account was deactivated instead of deleted.`)
        .waitFor();
      await confirm.waitFor({ state: 'hidden' });
      await row.getByText('Deactivated').waitFor();
      await row.getByRole('button', { name: /^Actions for / }).click();
      await staff.page.getByRole('menuitem', { name: 'Reactivate' }).waitFor();
      expect(await staff.page.getByRole('menuitem', { name: 'Delete' }).count()).toBe(0);
      await staff.page.keyboard.press('Escape');
      await screenshot(staff.page, 'users-deactivated');

      await phone.page.goto('/login');
      await phone.page.getByLabel('Phone number or username').fill(borrower.phone);
      await phone.page.getByLabel('Password', { exact: true }).fill(borrower.password);
      await phone.page.getByRole('button', { name: 'Log In' }).click();
      await phone.page.getByText('This account is deactivated').waitFor();
      expect(new URL(phone.page.url()).pathname).toBe('/login');

      const loan = await servicingRow(staff.page);
      await loan.getByText('Approved').waitFor();
    } finally {
      await staff.context.close();
      await phone.context.close();
    }
  });

  it('the audit log shows all of it, and the CSV export has the same rows for the same filter', async () => {
    const staff = await newPage(browser, 'desktop');
    try {
      await logInInBrowser(staff.page, 'admin', E2E_ADMIN_PASSWORD);
      await staff.page.goto(`/admin/audit?loan=${loanNumber}`);
      await staff.page.getByRole('heading', { name: 'Audit Log' }).waitFor();
      const table = staff.page.getByRole('table', { name: 'Audit Log' });
      const body = table.locator('tbody tr');
      // ₱150,000 is above the four-eyes threshold: approved once, then confirmed by a second officer.
      await expect.poll(() => body.count()).toBe(5);
      await screenshot(staff.page, 'audit-loan-filter');
      const rows = await body.evaluateAll((trs) =>
        trs.map((tr) => {
          const reason = tr.querySelector('[data-testid="audit-reason"]')?.textContent ?? '';
          return {
            action: tr.querySelector('[data-testid="audit-action"]')?.getAttribute('title') ?? '',
            who: tr.querySelectorAll('td')[1]?.textContent ?? '',
            changes: [...tr.querySelectorAll('[data-testid="audit-changes"] p')].map(
              (p) => p.textContent ?? '',
            ),
            reason: reason === 'N/A' ? '' : reason,
          };
        }),
      );
      expect(rows.map((r) => r.action)).toEqual([
        'user.reset_password',
        'loan.release',
        'loan.hold',
        'application.confirm_approval',
        'application.first_approve',
      ]);
      expect(rows[2]?.reason).toBe(holdReason);
      expect(rows[2]?.who).toContain(officer.username);
      // In the reader's language: field labels and status names, not codes.
      expect(rows[2]?.changes).toContain('Status: Approved → On hold');
      expect(rows[2]?.changes).toContain(`Message to borrower: — → ${holdMessage}`);
      expect(rows[1]?.reason).toBe(releaseReason);
      expect(rows[0]?.reason).toBe(resetReason);
      expect(rows[0]?.who).toContain('admin');
      await table.getByText('Put loan on hold').waitFor();

      // The export link carries the same filter; fetched with the admin's cookies it has the same rows.
      const link = staff.page.getByRole('link', { name: 'Export CSV' });
      const href = await link.getAttribute('href');
      expect(href).toBe(`/api/admin/audit.csv?loan=${loanNumber}&lang=en`);
      const csv = await staff.context.request.get(`${baseUrl()}${href}`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()['content-type']).toContain('text/csv');
      const [header, ...lines] = readCsv(await csv.text());
      expect(header).toEqual(auditExportHeader);
      expect(lines.map((line) => line[3])).toEqual(rows.map((r) => r.action));
      expect(lines.map((line) => line[7])).toEqual(rows.map((r) => r.reason));
      expect(lines.every((line) => line[5] === loanNumber)).toBe(true);
      // The machine column keeps codes and centavos; the readable one is what the screen shows.
      expect(lines.map((line) => line[11])).toEqual(rows.map((r) => r.changes.join('; ')));
      expect(lines[2]?.[6]).toContain('status: approved → on_hold');

      // The deactivation is there too (it concerns the user, not the loan): found by the user's id.
      const admin = await adminSession();
      const users = await admin.request<{ items: { id: string }[] }>(
        'GET',
        `/api/admin/users?phone=${borrower.phone}`,
      );
      const userId = users.body.items[0]!.id;
      await staff.page.getByRole('searchbox', { name: 'Loan' }).fill('');
      await staff.page.getByRole('textbox', { name: 'Action' }).click();
      await staff.page.getByRole('option', { name: 'Deactivated user' }).click();
      await staff.page.waitForURL((url) => url.searchParams.get('action') === 'user.deactivate');
      expect(new URL(staff.page.url()).searchParams.get('loan')).toBeNull();
      const deactivation = table
        .locator('tbody tr')
        .filter({ has: staff.page.locator(`[title="${userId}"]`) });
      await deactivation.waitFor();
      await deactivation.getByText('status: active → deactivated').waitFor();
      await screenshot(staff.page, 'audit-deactivation');
      const filtered = await staff.context.request.get(`${baseUrl()}${await link.getAttribute('href')}`);
      const [, ...deactivations] = readCsv(await filtered.text());
      const mine = deactivations.filter((line) => line[4] === `user ${userId}`);
      expect(mine.map((line) => [line[1], line[3], line[6]])).toEqual([
        ['admin', 'user.deactivate', 'status: active → deactivated'],
      ]);
      expect(deactivations.every((line) => line[3] === 'user.deactivate')).toBe(true);
    } finally {
      await staff.context.close();
    }
  });
});
