import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from './support/api';
import {
  type Borrower,
  borrowerWithApprovedLoan,
  latestDisbursement,
  logInInBrowser,
  signUpBorrower,
  submitApplication,
} from './support/borrower';
import { latestCode, launchBrowser, newPage, screenshot } from './support/browser';
import { E2E_RESEND_SECONDS } from './support/server';
import { approve, markFailed, markPaid, setHold, staffMember } from './support/staff';

let browser: Browser;
let officer: ApiSession;
let finance: ApiSession;

beforeAll(async () => {
  browser = await launchBrowser();
  officer = (await staffMember('officer')).api;
  finance = (await staffMember('finance')).api;
});
afterAll(async () => {
  await browser?.close();
});

const texts = {
  pending: 'Your loan is pending approval from the Finance Department. Please be patient.',
  approved:
    'Congratulations, your loan has been approved. You can now withdraw to your account from this wallet.',
  processing: 'Your withdrawal is being processed. This usually takes up to 10 minutes.',
};

async function logIn(page: Page, borrower: Borrower) {
  await logInInBrowser(page, borrower.phone, borrower.password);
  await page.waitForURL('**/loan/application');
}

const available = (page: Page) => page.getByTestId('available-balance').textContent();

const preview = (page: Page) =>
  page.getByRole('region', { name: 'What this withdrawal does to your payments' });

/** Types the amount and waits for what it does to the payments (shown before a code can be sent). */
async function enterAmount(page: Page, amount: string) {
  await page.getByLabel('Amount (whole pesos)').fill(amount);
  await preview(page).getByTestId('preview-monthly').waitFor();
}

/**
 * Asks for a code in the browser once the preview is shown, reads it from the development outbox, and
 * withdraws.
 */
async function withdraw(page: Page, borrower: Borrower, amount: string) {
  await enterAmount(page, amount);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('button', { name: /^Resend in \d+s$/ }).waitFor();
  const code = await latestCode(borrower.phone);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
}

describe('wallet in the browser', () => {
  it('a borrower withdraws; finance pays one withdrawal and fails another', async () => {
    const borrower = await borrowerWithApprovedLoan(officer, { amount: 50_000, termMonths: 6 });
    const { context, page } = await newPage(browser, 'phone');
    // The page's timers on a clock the test can move (time still passes as usual): the wallet's 30 s poll
    // is then made due at once below instead of waited for.
    await context.clock.install();
    try {
      await logIn(page, borrower);
      await page.getByRole('link', { name: 'Wallet', exact: true }).click();
      await page.waitForURL('**/wallet');
      await page.getByText(texts.approved).waitFor();
      expect(await available(page)).toBe('₱50,000.00');
      expect(await page.getByText('Maria Santos').first().isVisible()).toBe(true);
      await page.getByRole('region', { name: 'Repayment schedule' }).waitFor();
      await screenshot(page, 'wallet-approved-phone');

      // First withdrawal: before the code, what it does to the payments (₱5,000 over 6 months at 2 %).
      await enterAmount(page, '5000');
      expect(await preview(page).getByTestId('preview-monthly').textContent()).toBe('₱892.63');
      await preview(page).getByText('First payment due (estimated)').waitFor();
      await preview(page)
        .getByText(/^Estimated for a payout today/)
        .waitFor();
      expect(await preview(page).getByRole('table').count()).toBe(0);
      await screenshot(page, 'wallet-preview-first-phone');

      // Requested, then paid by finance.
      const firstCodeAt = Date.now();
      await withdraw(page, borrower, '5000');
      // The confirmation in the form (the toast says the same first words).
      await page.getByText(/^Withdrawal of ₱5,000\.00 requested\. We send it/).waitFor();
      await page.getByText(texts.processing).waitFor();
      expect(await page.getByText('In Processing').count()).toBe(1);
      await expect.poll(() => available(page)).toBe('₱45,000.00');
      expect(await page.getByTestId('withdrawn-total').textContent()).toBe('₱5,000.00');
      await screenshot(page, 'wallet-processing-phone');

      const first = await latestDisbursement(borrower);
      expect(first).toMatchObject({ amountMinor: 500_000, status: 'requested' });
      await markPaid(finance, first.id, 'E2E-PAID-1');
      await page.reload();
      const paidRow = page.getByTestId('disbursement').first();
      await paidRow.getByText('Paid', { exact: true }).waitFor();
      await paidRow.getByText('Reference: E2E-PAID-1').waitFor();
      await page.getByText('Your withdrawal of ₱5,000.00 was paid. Reference: E2E-PAID-1.').waitFor();
      expect(await page.getByText('In Processing').count()).toBe(0);
      expect(await available(page)).toBe('₱45,000.00');
      await screenshot(page, 'wallet-paid-phone');

      // The account page while the wait before the next code passes (shortened for e2e, see server.ts).
      await page.getByRole('link', { name: 'Account' }).click();
      await page.waitForURL('**/account');
      expect(await page.getByTestId('credit-rating').textContent()).toBe('Good');
      // The number counts up for about a second.
      await expect.poll(() => page.getByTestId('credit-score').textContent(), { timeout: 5_000 }).toBe('500');
      // The picker is controlled by the saved value, so a click (not check()) and then the confirmation.
      await page.getByRole('radio', { name: 'Fox' }).click();
      await page.getByText('Your avatar has been updated.').waitFor();
      const me = await borrower.api.request<{ user: { avatar: number } }>('GET', '/api/me');
      expect(me.body.user.avatar).toBe(3);
      await screenshot(page, 'account-phone');

      // Second withdrawal: finance marks it failed; the poll brings the amount back without a reload.
      await page.getByRole('link', { name: 'Wallet', exact: true }).click();
      await page.waitForURL('**/wallet');
      await page.getByLabel('Amount (whole pesos)').waitFor();
      const wait = firstCodeAt + (E2E_RESEND_SECONDS + 1) * 1000 - Date.now();
      if (wait > 0) await page.waitForTimeout(wait);
      // A later withdrawal: the plan now (from the ₱5,000 paid out today) beside the plan after it.
      await enterAmount(page, '2000');
      expect(await preview(page).getByTestId('preview-monthly-now').textContent()).toBe('₱892.63');
      // Five payments of ₱892.63 and a last of ₱892.62 (its interest is 2 % of its own balance, decision 035).
      expect(await preview(page).getByTestId('preview-total-now').textContent()).toBe('₱5,355.77');
      const after = await preview(page).getByTestId('preview-monthly').textContent();
      expect(after).not.toBe('₱892.63');
      await screenshot(page, 'wallet-preview-second-phone');
      await withdraw(page, borrower, '2000');
      // The confirmation in the form (the toast says the same first words).
      await page.getByText(/^Withdrawal of ₱2,000\.00 requested\. We send it/).waitFor();
      await expect.poll(() => available(page)).toBe('₱43,000.00');

      const second = await latestDisbursement(borrower);
      expect(second).toMatchObject({ amountMinor: 200_000, status: 'requested' });
      await markFailed(finance, second.id, 'Account name does not match');
      // The poll's interval passes (no reload, no navigation): its next request brings the failure.
      await page.clock.fastForward(30_000);
      const failedRow = page.getByTestId('disbursement').first();
      await failedRow.getByText('Failed', { exact: true }).waitFor({ timeout: 40_000 });
      await failedRow.getByText('Reason: Account name does not match').waitFor();
      await expect.poll(() => available(page)).toBe('₱45,000.00');
      await page
        .getByText(
          'Your withdrawal of ₱2,000.00 failed: Account name does not match. The amount is available again.',
        )
        .waitFor();
      // Paid out once, the wallet leads with the loan (issue #32), not the approval banner; withdrawing works again.
      await page.getByRole('button', { name: 'Withdraw', exact: true }).waitFor();
      await screenshot(page, 'wallet-failed-phone');
    } finally {
      await context.close();
    }
  }, 240_000);

  it('shows a pending application, then the approval, then a hold that pauses withdrawals', async () => {
    const borrower = await signUpBorrower();
    const { context, page } = await newPage(browser, 'desktop');
    try {
      await logIn(page, borrower);
      await page.goto('/wallet');
      await page.getByRole('link', { name: 'Apply for a loan' }).waitFor();

      const applicationId = (await submitApplication(borrower, { amount: 100_000, termMonths: 12 })).id;
      await page.reload();
      await page.getByText(texts.pending).waitFor();
      expect(await page.getByRole('button', { name: 'Withdraw', exact: true }).count()).toBe(0);
      await screenshot(page, 'wallet-pending-desktop');

      await approve(officer, applicationId, 650);
      await page.reload();
      await page.getByText(texts.approved).waitFor();
      expect(await available(page)).toBe('₱100,000.00');
      await page.getByText('Your loan of ₱100,000.00 was approved. Credit score: 650.').waitFor();

      await setHold(officer, applicationId, 'hold', 'Please call our office to confirm your identity.');
      await page.reload();
      await page
        .getByText('Withdrawals are paused: Please call our office to confirm your identity.')
        .waitFor();
      expect(await page.getByRole('button', { name: 'Send code' }).count()).toBe(0);
      await page
        .getByText('Your loan was put on hold: Please call our office to confirm your identity.')
        .waitFor();
      await screenshot(page, 'wallet-on-hold-desktop');

      // The server refuses too, whatever the page shows.
      const refused = await borrower.api.request<{ error: { code: string } }>(
        'POST',
        '/api/wallet/withdrawal-code',
        { amount: 1000 },
      );
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.body.error.code).toBe('WITHDRAWALS_PAUSED');

      await page.goto('/account');
      expect(await page.getByTestId('credit-rating').textContent()).toBe('Very Good');
      await screenshot(page, 'account-desktop');
    } finally {
      await context.close();
    }
  });
});
