import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowerWithApplication, logInInBrowser, myApplication } from './support/borrower';
import { latestCode, launchBrowser, newPage, screenshot } from './support/browser';
import { staffMember } from './support/staff';

/** Signed terms bind, and four-eyes approval above ₱100,000 (issue #14, docs/decisions/018). */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function pendingRow(page: Page, name: string): Promise<Locator> {
  await page.goto(`/admin/pending?name=${encodeURIComponent(name)}`);
  await page.getByRole('heading', { name: 'Pending Loan List' }).waitFor();
  const row = page.locator('tbody tr', { hasText: name });
  await row.waitFor();
  return row;
}

async function chooseRowAction(page: Page, row: Locator, name: string) {
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name }).click();
}

describe('signed terms and two-person approval', () => {
  it('staff raise the amount, the borrower accepts it with a code, two staff members approve', async () => {
    const first = await staffMember('officer');
    const second = await staffMember('admin');
    const name = `Lara Terms ${Date.now().toString(36)}`;
    const borrower = await borrowerWithApplication({ fullName: name, amount: 100_000, termMonths: 12 });

    const staff = await newPage(browser, 'desktop');
    const phone = await newPage(browser, 'phone');
    const other = await newPage(browser, 'phone');
    try {
      // The first officer raises the amount: it becomes a proposal, the terms stay as signed.
      await logInInBrowser(staff.page, first.username, first.password);
      await staff.page.waitForURL('**/admin/home');
      let row = await pendingRow(staff.page, name);
      await chooseRowAction(staff.page, row, 'Update Loan');
      const update = staff.page.getByRole('dialog', { name: 'Update Loan' });
      await update.getByText('Shown to the borrower', { exact: false }).waitFor();
      const amount = update.getByLabel('Loan amount');
      await amount.fill('150000');
      await amount.blur();
      await update.getByLabel(/Note to the borrower/).fill('Your income supports a larger loan');
      await update.getByRole('button', { name: 'Save' }).click();
      await staff.page
        .getByText(`New terms for ${borrower.application.loanNumber} sent to the borrower: ₱150,000.00`, {
          exact: false,
        })
        .waitFor();
      await row.getByText("Waiting for borrower's acceptance").waitFor();
      expect(await row.textContent()).toContain('₱100,000');
      await screenshot(staff.page, 'signed-terms-staff-waiting-desktop');
      // Nothing is approved on terms the borrower has not accepted.
      const early = await first.api.request<{ error: { code: string } }>(
        'POST',
        `/api/staff/applications/${borrower.application.id}/approve`,
        { creditScore: 600 },
      );
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('TERMS_CHANGE_PENDING');

      // The borrower (390 px) sees the terms now beside the proposed ones and accepts with a code.
      await logInInBrowser(phone.page, borrower.phone, borrower.password);
      await phone.page.goto('/wallet');
      const card = phone.page.getByRole('region', { name: 'New loan terms to review' });
      await card.waitFor();
      const amountRow = card.getByRole('row', { name: /Amount/ }).first();
      await expect.poll(() => amountRow.textContent()).toContain('₱150,000.00');
      expect(await amountRow.textContent()).toContain('₱100,000.00');
      await card.getByText('Reason given: Your income supports a larger loan').waitFor();
      await screenshot(phone.page, 'signed-terms-borrower-review-phone');
      await card.getByRole('button', { name: 'Send code' }).click();
      // Sent once the button counts down; the outbox also holds the sign-up code, so ask for this one's.
      await card.getByRole('button', { name: /^Resend in \d+s$/ }).waitFor();
      await card.getByLabel('Verification code').fill(await latestCode(borrower.phone, 'terms_change'));
      await card.getByRole('button', { name: 'Accept new terms' }).click();
      await phone.page.getByText('You accepted the new terms.').waitFor();
      await card.waitFor({ state: 'hidden' });
      const signed = phone.page.getByRole('region', { name: 'Your signed terms' });
      await signed.getByText('Change you accepted').waitFor();
      await signed.getByRole('button', { name: 'View: Statement you signed' }).click();
      await phone.page.getByText(/SHA-256 of these exact terms: [0-9a-f]{64}/).waitFor();
      await screenshot(phone.page, 'signed-terms-borrower-statement-phone', { fullPage: false });
      await phone.page.keyboard.press('Escape');
      expect((await myApplication(borrower))?.amountMinor).toBe(15_000_000);

      // Above ₱100,000: the first approval waits for a second staff member.
      row = await pendingRow(staff.page, name);
      await expect.poll(() => row.textContent()).toContain('₱150,000');
      await chooseRowAction(staff.page, row, 'Approve');
      const approve = staff.page.getByRole('dialog', { name: 'Approve Loan' });
      await approve.getByRole('button', { name: 'Approve' }).click();
      await staff.page
        .getByText('A second staff member must confirm the approval.', { exact: false })
        .waitFor();
      await row.getByText(`Awaiting second approval — approved by ${first.username}`).waitFor();
      await screenshot(staff.page, 'four-eyes-awaiting-desktop');
      // The first approver cannot confirm their own approval.
      const own = await first.api.request<{ error: { code: string } }>(
        'POST',
        `/api/staff/applications/${borrower.application.id}/confirm-approval`,
      );
      expect(own.status).toBe(403);
      expect(own.body.error.code).toBe('OWN_APPROVAL_CONFIRM');

      // The second staff member (on a phone, 390 px) confirms.
      await logInInBrowser(other.page, second.username, second.password);
      await other.page.waitForURL('**/admin/home');
      const otherRow = await pendingRow(other.page, name);
      await otherRow.getByText(`Awaiting second approval — approved by ${first.username}`).waitFor();
      await screenshot(other.page, 'four-eyes-awaiting-phone');
      await chooseRowAction(other.page, otherRow, 'Confirm approval');
      const confirm = other.page.getByRole('dialog', { name: 'Confirm Approval' });
      await confirm.getByText(`${first.username} approved`, { exact: false }).waitFor();
      await screenshot(other.page, 'four-eyes-confirm-phone', { fullPage: false });
      await confirm.getByRole('button', { name: 'Confirm approval' }).click();
      await other.page.getByText(`Loan ${borrower.application.loanNumber} approved.`).waitFor();
      expect(await myApplication(borrower)).toMatchObject({
        status: 'approved',
        approvedAmountMinor: 15_000_000,
        creditScore: 500,
      });
    } finally {
      await staff.context.close();
      await phone.context.close();
      await other.context.close();
    }
  });
});
