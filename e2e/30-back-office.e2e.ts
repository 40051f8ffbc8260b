import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acceptTermsThroughApi,
  borrowerWithApplication,
  logInInBrowser,
  myApplication,
} from './support/borrower';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { loadedCard, staffMember } from './support/staff';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Summary {
  pendingLoans: number;
  approvedLoans: number;
  rejectedLoans: number;
  totalLoans: number;
  registeredTotal: number;
}

async function logIn(page: Page, username: string, password: string) {
  await logInInBrowser(page, username, password);
  await page.waitForURL('**/admin/home');
}

/** The Pending item's live badge, as a number. */
async function badgeCount(page: Page): Promise<number> {
  const text = await page.getByTestId('pending-count').textContent();
  return Number(text);
}

async function cardValue(page: Page, id: string): Promise<string> {
  return (await loadedCard(page, id).textContent()) ?? '';
}

/** Searches the current list by name (Enter in the box) and returns the only matching row. */
async function searchRow(page: Page, name: string) {
  const box = page.getByLabel('Name', { exact: true });
  await box.fill(name);
  await box.press('Enter');
  await page.waitForURL(/name=/);
  const row = page.locator('tbody tr', { hasText: name });
  await row.waitFor();
  // The previous page stays on screen while the search loads (keepPreviousData): wait for the result.
  await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
  return row;
}

/** Chooses one of a list row's actions from its "Actions" menu. */
async function chooseRowAction(page: Page, row: Locator, name: string) {
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name }).click();
}

async function switchLanguage(page: Page, label: string) {
  await page
    .locator('header')
    .getByRole('button', { name: /Language|语言|ភាសា/ })
    .click();
  await page.getByRole('menuitem', { name: label }).click();
  await page.getByRole('menu').waitFor({ state: 'hidden' });
}

/** Screenshots without the English toasts of earlier steps (they hide after 4 s). */
async function toastsGone(page: Page) {
  await expect.poll(() => page.locator('.mantine-Notification-root').count(), { timeout: 8_000 }).toBe(0);
}

describe('back office: an officer decides applications', () => {
  it('sees new applications live, reviews, updates, approves and rejects; borrowers and figures follow', async () => {
    const officer = await staffMember('officer');
    const officerApi = officer.api;
    const summary = async () => (await officerApi.request<Summary>('GET', '/api/staff/dashboard')).body;
    const before = await summary();

    const { context, page } = await newPage(browser, 'desktop');
    try {
      await logIn(page, officer.username, officer.password);
      await page.getByRole('heading', { name: 'Home Page Summary' }).waitFor();
      await loadedCard(page, 'totalLoans').waitFor();
      expect(await cardValue(page, 'totalLoans')).toBe(String(before.totalLoans));

      await page.getByRole('link', { name: /Pending/ }).click();
      await page.waitForURL('**/admin/pending');
      await page.getByRole('heading', { name: 'Pending Loan List' }).waitFor();
      await expect.poll(() => badgeCount(page)).toBe(before.pendingLoans);

      // A borrower applies through the API: the badge rises without a reload.
      const unique = Date.now().toString(36);
      const approvedName = `Maria Approve ${unique}`;
      const first = await borrowerWithApplication({
        fullName: approvedName,
        amount: 100_000,
        termMonths: 12,
      });
      await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(before.pendingLoans + 1);

      const row = await searchRow(page, approvedName);
      await expect.poll(() => row.textContent()).toContain(first.application.loanNumber);
      expect(await row.textContent()).toContain('₱100,000');
      await screenshot(page, 'back-office-pending-desktop');

      // View Profile: every field, the pictures (really loaded from /api/files) and the signature.
      await chooseRowAction(page, row, 'View Profile');
      const profile = page.getByRole('dialog');
      await profile.getByText('Sari-Sari Store').waitFor();
      expect(await profile.textContent()).toContain(`${first.phone}01`);
      for (const alt of ['Front ID picture', 'Back ID picture', 'Selfie with ID picture', 'Signature']) {
        const image = profile.getByRole('img', { name: alt, exact: true });
        await expect
          .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
      }
      await screenshot(page, 'back-office-profile');
      await profile.getByRole('button', { name: 'Enlarge Front ID picture' }).click();
      const lightbox = page.getByRole('dialog', { name: 'Front ID picture' });
      await lightbox.waitFor();
      await page.keyboard.press('Escape');
      await lightbox.waitFor({ state: 'hidden' });
      await page.keyboard.press('Escape');
      await profile.waitFor({ state: 'hidden' });

      // Update Loan: an amount off the staff step is never changed silently; the nearest allowed one is
      // offered (issue #32) and the monthly payment follows. The new terms go to the borrower, who accepts
      // them with a code before anything is approved (docs/decisions/018).
      await chooseRowAction(page, row, 'Update Loan');
      const update = page.getByRole('dialog', { name: 'Update Loan' });
      const payment = update.getByTestId('monthly-payment');
      const paymentBefore = await payment.textContent();
      const amount = update.getByLabel('Loan amount');
      await amount.fill('93456');
      await amount.blur();
      expect(await amount.inputValue()).toBe('93456');
      await update.getByRole('button', { name: 'Use ₱90,000' }).click();
      expect(await amount.inputValue()).toBe('90,000');
      await update.getByText('24 months').click();
      await expect.poll(() => payment.textContent()).not.toBe(paymentBefore);
      await screenshot(page, 'back-office-update-loan');
      await update.getByRole('button', { name: 'Save' }).click();
      await page
        .getByText(
          `New terms for ${first.application.loanNumber} sent to the borrower: ₱90,000.00 over 24 months.`,
          {
            exact: false,
          },
        )
        .waitFor();
      await update.waitFor({ state: 'hidden' });
      await row.getByText("Waiting for borrower's acceptance").waitFor();
      await acceptTermsThroughApi(first);
      await page
        .getByRole('button', { name: /Refresh/ })
        .first()
        .click();
      await expect.poll(() => row.textContent()).toContain('₱90,000');
      await expect.poll(() => row.textContent()).not.toContain("Waiting for borrower's acceptance");

      // Approve with a credit score.
      await chooseRowAction(page, row, 'Approve');
      const approve = page.getByRole('dialog', { name: 'Approve Loan' });
      const score = approve.getByLabel('Credit score');
      expect(await score.inputValue()).toBe('500');
      await score.fill('720');
      await approve.getByText('Rating: Very Good').waitFor();
      await screenshot(page, 'back-office-approve');
      await approve.getByRole('button', { name: 'Approve' }).click();
      await page.getByText(`Loan ${first.application.loanNumber} approved.`).waitFor();
      await page.getByText('No results found.').waitFor();
      await expect.poll(() => badgeCount(page)).toBe(before.pendingLoans);

      const mine = await myApplication(first);
      expect(mine).toMatchObject({
        status: 'approved',
        approvedAmountMinor: 9_000_000,
        termMonths: 24,
        creditScore: 720,
      });

      // A second borrower is rejected with a reason, after a confirmation.
      const rejectedName = `Jose Reject ${unique}`;
      const second = await borrowerWithApplication({ fullName: rejectedName, amount: 50_000, termMonths: 6 });
      await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(before.pendingLoans + 1);
      const secondRow = await searchRow(page, rejectedName);
      await chooseRowAction(page, secondRow, 'Reject');
      const reject = page.getByRole('dialog', { name: 'Reject Loan' });
      await reject.getByRole('button', { name: 'Reject' }).click();
      await reject.getByText('A reason is required.').waitFor();
      const reason = 'Income could not be verified.';
      await reject.getByLabel(/Reason for rejection/).fill(reason);
      await reject.getByRole('button', { name: 'Reject' }).click();
      await reject.getByText(/Are you sure you want to reject/).waitFor();
      await screenshot(page, 'back-office-reject-confirm');
      await reject.getByRole('button', { name: 'Reject' }).click();
      await page.getByText(`Loan ${second.application.loanNumber} rejected.`).waitFor();
      await expect.poll(() => badgeCount(page)).toBe(before.pendingLoans);
      expect(await myApplication(second)).toMatchObject({ status: 'rejected', rejectReason: reason });

      // The Approved list shows who approved it.
      await page.getByRole('link', { name: /Approved/ }).click();
      await page.getByRole('heading', { name: 'Approved Loan List' }).waitFor();
      const approvedRow = await searchRow(page, approvedName);
      expect(await approvedRow.textContent()).toContain(officer.username);
      expect(await approvedRow.textContent()).toContain('₱90,000');

      // The dashboard counts both decisions.
      const after = await summary();
      expect(after).toMatchObject({
        pendingLoans: before.pendingLoans,
        approvedLoans: before.approvedLoans + 1,
        rejectedLoans: before.rejectedLoans + 1,
        totalLoans: before.totalLoans + 2,
        registeredTotal: before.registeredTotal + 2,
      });
      await page.getByRole('link', { name: 'Home' }).click();
      await page.getByRole('heading', { name: 'Home Page Summary' }).waitFor();
      await expect.poll(() => cardValue(page, 'totalLoans')).toBe(String(after.totalLoans));
      expect(await cardValue(page, 'approvedLoans')).toBe(String(after.approvedLoans));
      expect(await cardValue(page, 'rejectedLoans')).toBe(String(after.rejectedLoans));
      await page.getByText('Loan Status Overview').waitFor();
      await screenshot(page, 'back-office-home-en');

      // The same pages in Chinese and Khmer, with one application waiting.
      const waiting = await borrowerWithApplication({ fullName: `Ana Waiting ${unique}`, amount: 200_000 });
      await expect.poll(() => badgeCount(page), { timeout: 15_000 }).toBe(before.pendingLoans + 1);
      await toastsGone(page);
      await switchLanguage(page, '中文');
      await page.getByRole('heading', { name: '首页概览' }).waitFor();
      await page.getByText('贷款状态概览').waitFor();
      await screenshot(page, 'back-office-home-zh');
      await page.getByRole('link', { name: /待审批/ }).click();
      await page.getByRole('heading', { name: '待审批贷款列表' }).waitFor();
      await page.locator('tbody tr', { hasText: waiting.application.loanNumber }).waitFor();
      await screenshot(page, 'back-office-pending-zh');

      await switchLanguage(page, 'ខ្មែរ');
      await page.getByRole('heading', { name: 'បញ្ជីកម្ចីកំពុងរង់ចាំ' }).waitFor();
      await screenshot(page, 'back-office-pending-km');
      await page.getByRole('link', { name: 'ទំព័រដើម' }).click();
      await page.getByRole('heading', { name: 'សេចក្ដីសង្ខេបទំព័រដើម' }).waitFor();
      await loadedCard(page, 'totalLoans').waitFor();
      await screenshot(page, 'back-office-home-km');
    } finally {
      await context.close();
    }
  });

  it('finance sees the lists without decision buttons', async () => {
    const finance = await staffMember('finance');
    await borrowerWithApplication({ fullName: `Finance View ${Date.now().toString(36)}` });
    const { context, page } = await newPage(browser, 'phone');
    try {
      await logIn(page, finance.username, finance.password);
      await page.goto('/admin/pending');
      await page.getByRole('heading', { name: 'Pending Loan List' }).waitFor();
      const actions = page
        .locator('tbody tr')
        .first()
        .getByRole('button', { name: /^Actions for / });
      await actions.waitFor();
      // On a phone the row's Actions button is on screen without scrolling the table sideways.
      const box = await actions.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
      await actions.click();
      await page.getByRole('menuitem', { name: 'View Profile' }).waitFor();
      expect(await page.getByRole('menuitem').allTextContents()).toEqual(['View Profile']);
      await page.keyboard.press('Escape');
      await screenshot(page, 'back-office-pending-finance-phone');
    } finally {
      await context.close();
    }
  });
});
