import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAndStaffWithLateCharge, staffLedger } from './helpers-ledger';
import { ApiSession } from './support/api';
import {
  type Borrower,
  borrowerWithApprovedLoan,
  latestDisbursement,
  logInInBrowser,
  withdrawThroughApi,
} from './support/borrower';
import { baseUrl, latestCode, newPage, screenshot } from './support/browser';
import { runningServer } from './support/server';
import { markPaid, type StaffMember } from './support/staff';

/**
 * The second half of a loan's life in a real browser (issue #10): a borrower withdraws, finance pays the
 * payout, the borrower's schedule appears, finance records a part payment and then the payoff, and the
 * loan shows as closed on both sides. Then, on a second loan, weeks pass (the server restarted with its
 * test clock ahead): the instalment is overdue, a late charge accrues, the Overdue queue lists it and the
 * reminder job texts the borrower.
 */
const LATE_CHARGE_BP = 300;

let browser: Browser;
let officer: StaffMember;
let finance: StaffMember;

beforeAll(async () => {
  ({ browser, officer, finance } = await browserAndStaffWithLateCharge(LATE_CHARGE_BP));
});
afterAll(async () => {
  await browser?.close();
});

const manilaToday = (at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(at);

/** Pesos as the form takes them ("1,234.56" without the grouping). */
const pesos = (minor: number) => (minor / 100).toFixed(2);

/** Chooses one of a list row's actions from its "Actions" menu. */
async function chooseRowAction(page: Page, row: Locator, name: string) {
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** Finance records money received on the staff loan page, as they would from a bank statement. */
async function recordRepayment(page: Page, amount: string, reference: string) {
  await page.getByRole('button', { name: 'Record repayment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record Repayment' });
  await dialog.getByLabel(/^Amount received/).fill(amount);
  await dialog.getByRole('textbox', { name: /^Channel/ }).click();
  await page.getByRole('option', { name: 'GCash' }).click();
  await dialog.getByLabel(/^Payment reference/).fill(reference);
  await dialog.getByRole('button', { name: 'Record', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('repayments in the browser', () => {
  it('withdraw → paid → schedule → part payment → payoff → closed, for the borrower and for staff', async () => {
    const borrower = await borrowerWithApprovedLoan(officer.api, {
      fullName: 'Rosa Villanueva',
      amount: 50_000,
      termMonths: 6,
    });
    const me = await newPage(browser, 'phone');
    const staff = await newPage(browser, 'desktop');
    try {
      // The borrower withdraws ₱20,000 in the wallet, after reading what it does to the payments.
      await logInInBrowser(me.page, borrower.phone, borrower.password);
      await me.page.goto('/wallet');
      await me.page.getByLabel('Amount (whole pesos)').fill('20000');
      const preview = me.page.getByRole('region', { name: 'What this withdrawal does to your payments' });
      await preview.getByTestId('preview-monthly').waitFor();
      await me.page.getByRole('button', { name: 'Send code' }).click();
      await me.page.getByRole('button', { name: /^Resend in \d+s$/ }).waitFor();
      await me.page.getByLabel('Verification code').fill(await latestCode(borrower.phone));
      await me.page.getByRole('button', { name: 'Withdraw', exact: true }).click();
      // The confirmation in the form (the toast says the same first words).
      await me.page.getByText(/^Withdrawal of ₱20,000\.00 requested\. We send it/).waitFor();

      // Finance pays it from the Disbursements list.
      await logInInBrowser(staff.page, finance.username, finance.password);
      await staff.page.goto('/admin/disbursements');
      const payout = staff.page.locator('tbody tr', { hasText: borrower.loanNumber });
      await chooseRowAction(staff.page, payout, 'Mark Paid');
      const paid = staff.page.getByRole('dialog', { name: 'Mark Paid' });
      await paid.getByLabel(/^Transfer reference/).fill('E2E-REPAY-PAYOUT');
      await paid.getByRole('button', { name: 'Mark Paid' }).click();
      await paid.waitFor({ state: 'hidden' });

      // The borrower's schedule now runs from the payout: six payments on the ₱20,000 paid out, the next
      // one said first (issue #32).
      await me.page.reload();
      await me.page.getByRole('region', { name: /^Next payment due / }).waitFor();
      await screenshot(me.page, 'repayments-wallet-schedule-phone');

      // Finance opens the loan from the list and records a part payment of ₱1,000.
      await staff.page.goto('/admin/approved');
      await staff.page.getByRole('link', { name: borrower.loanNumber }).click();
      await staff.page.getByRole('heading', { name: `Loan ${borrower.loanNumber}` }).waitFor();
      await recordRepayment(staff.page, '1000', 'GC-E2E-PART');
      await staff.page.getByText(`Repayment of ₱1,000.00 recorded for ${borrower.loanNumber}.`).waitFor();
      const ledger = staff.page.getByRole('table', { name: 'Repayments received' });
      await ledger.getByText('GC-E2E-PART').waitFor();
      expect((await staffLedger(finance.api, borrower.applicationId)).status).toBe('approved');
      await screenshot(staff.page, 'repayments-staff-loan-part-paid-desktop');

      // The borrower sees it in their history.
      await me.page.reload();
      await me.page.getByText('GC-E2E-PART').first().waitFor();

      // Then the payoff of today: the loan closes in the same transaction.
      const { payoffMinor } = (await staffLedger(finance.api, borrower.applicationId)).position;
      // Paid out today and paid today: no interest has run yet, so the payoff is what is left of the principal.
      expect(payoffMinor).toBe(1_900_000);
      await recordRepayment(staff.page, pesos(payoffMinor), 'GC-E2E-PAYOFF');
      await staff.page.getByText(`Loan ${borrower.loanNumber} is paid in full and closed.`).waitFor();
      expect(await staff.page.getByTestId('loan-status').textContent()).toBe('Closed');
      expect(await staff.page.getByRole('button', { name: 'Record repayment' }).count()).toBe(0);
      await screenshot(staff.page, 'repayments-staff-loan-closed-desktop');
      expect((await staffLedger(finance.api, borrower.applicationId)).status).toBe('closed');

      await me.page.reload();
      await me.page.getByRole('region', { name: /^Paid in full on / }).waitFor();
      await screenshot(me.page, 'repayments-wallet-closed-phone');
    } finally {
      await me.context.close();
      await staff.context.close();
    }
  });

  it('weeks later an unpaid instalment is overdue: late charge, Overdue queue, and a reminder by SMS', async () => {
    const borrower: Borrower & { applicationId: string; loanNumber: string } = await borrowerWithApprovedLoan(
      officer.api,
      { fullName: 'Dario Mendoza', amount: 30_000, termMonths: 6 },
    );
    await withdrawThroughApi(borrower, 10_000);
    await markPaid(finance.api, (await latestDisbursement(borrower)).id, 'E2E-OVERDUE-PAYOUT');

    // Forty days on, at 11:00 in Manila (reminders never go out at night): the first instalment, due a
    // month after the payout, is ten days unpaid — past the three days of grace.
    const later = new Date(`${manilaToday()}T03:00:00.000Z`);
    later.setUTCDate(later.getUTCDate() + 40);
    await runningServer().restart({
      TEST_CLOCK_START: later.toISOString(),
      JOBS_INTERVAL_SECONDS: '10',
    });
    const financeApi = new ApiSession();
    await financeApi.login(finance.username, finance.password);

    const ledger = await staffLedger(financeApi, borrower.applicationId);
    expect(ledger.position.daysPastDue).toBeGreaterThanOrEqual(8);
    expect(ledger.position.lateChargesDueMinor).toBeGreaterThan(0);

    // The reminder job texts the borrower: factual, with the amount, the loan number and how to pay.
    let reminder: string | undefined;
    for (let i = 0; i < 120 && !reminder; i++) {
      const outbox = await fetch(`${baseUrl()}/api/dev/outbox?phone=${borrower.phone}`);
      const { messages } = (await outbox.json()) as { messages: { text: string }[] };
      reminder = messages.find((m) => m.text.startsWith('Hiram reminder:'))?.text;
      if (!reminder) await new Promise((r) => setTimeout(r, 500));
    }
    expect(reminder).toMatch(new RegExp(`on loan ${borrower.loanNumber} is past due`));
    expect(reminder).toContain('If you have already paid, thank you');

    const staff = await newPage(browser, 'desktop');
    const me = await newPage(browser, 'phone');
    try {
      // Staff: the loan is in the Overdue queue, in the 1–30 days bucket, and its page shows the charge.
      await logInInBrowser(staff.page, officer.username, officer.password);
      await staff.page.goto('/admin/overdue');
      const row = staff.page.locator('tbody tr', { hasText: borrower.loanNumber });
      await row.waitFor();
      await row.getByText('Dario Mendoza').waitFor();
      await screenshot(staff.page, 'repayments-overdue-queue-desktop');
      await row.getByRole('link', { name: borrower.loanNumber }).click();
      await staff.page.getByRole('heading', { name: `Loan ${borrower.loanNumber}` }).waitFor();
      const lateCharges = staff.page.getByTestId('position-figure').filter({ hasText: 'Late charges due' });
      expect(await lateCharges.textContent()).not.toContain('₱0.00');
      await staff.page
        .getByText(/^Overdue · \d+ days$/)
        .first()
        .waitFor();
      await screenshot(staff.page, 'repayments-staff-loan-overdue-desktop');

      // The borrower: what is overdue and the late charge, first on the wallet (issue #32).
      await logInInBrowser(me.page, borrower.phone, borrower.password);
      await me.page.goto('/wallet');
      const overdue = me.page.getByRole('region', { name: 'Your payment is overdue' });
      await overdue.getByTestId('due-now-amount').waitFor();
      await overdue.getByText('Late charges').waitFor();
      await screenshot(me.page, 'repayments-wallet-overdue-phone');
    } finally {
      await staff.context.close();
      await me.context.close();
    }
  });
});
