import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeFindings } from './helpers-axe';
import { browserAndStaffWithLateCharge, staffLedger } from './helpers-ledger';
import { ApiSession, expectStatus } from './support/api';
import {
  type Borrower,
  borrowerWithApprovedLoan,
  latestDisbursement,
  logInInBrowser,
  withdrawThroughApi,
} from './support/borrower';
import { axePage, checkedSizes, screenshot } from './support/browser';
import { providerPays } from './support/payments';
import { runningServer } from './support/server';
import { markPaid, type StaffMember } from './support/staff';

/**
 * Issue #32's "done means", in a real browser at 390 px and at desktop width: a borrower 54 days late opens
 * the wallet on the overdue card and its one amount; paying exactly that amount through the provider's
 * webhook, with the loan number written without dashes, clears the arrears; the payoff keeps the schedule's
 * history; money paid above the payoff is held and finance sends it back, and the borrower sees both.
 */
const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789abcdef-0123456789';
const LATE_CHARGE_BP = 300;

let browser: Browser;
let officer: StaffMember;
let finance: StaffMember;

const manilaToday = (at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(at);

beforeAll(async () => {
  ({ browser, officer, finance } = await browserAndStaffWithLateCharge(LATE_CHARGE_BP));
});
afterAll(async () => {
  await browser?.close();
});

/** How far ahead the server's test clock runs (TEST_CLOCK_START): the provider signs in the server's time. */
let clockOffsetMs = 0;

/** The provider tells us of a payment, signed as the provider signs it, in the server's time. */
function providerPaysLoan(paymentReference: string, amountMinor: number) {
  return providerPays(
    WEBHOOK_SECRET,
    { paymentReference, amountMinor, payerName: 'Dario Mendoza' },
    new Date(Date.now() + clockOffsetMs),
  );
}

async function borrowerPage(viewport: keyof typeof checkedSizes, borrower: Borrower) {
  const { context, page } = await axePage(browser, checkedSizes[viewport]);
  await logInInBrowser(page, borrower.phone, borrower.password);
  await page.goto('/wallet');
  return { context, page };
}

/** Serious and critical axe findings on the page as it is now, and whether it scrolls sideways. */
async function check(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  const findings = await seriousAxeFindings(page);
  expect(findings).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

/** The names of the page's regions, top to bottom. */
async function regionsInOrder(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main section[aria-labelledby], main section[aria-label]')].map((s) => {
      const id = s.getAttribute('aria-labelledby');
      return (id ? document.getElementById(id)?.textContent : s.getAttribute('aria-label')) ?? '';
    }),
  );
}

describe("the borrower's loan after payout (issue #32)", () => {
  it('54 days late: the overdue card first; the webhook pays exactly its amount; payoff, credit and refund', async () => {
    const borrower = await borrowerWithApprovedLoan(officer.api, {
      fullName: 'Dario Mendoza',
      amount: 30_000,
      termMonths: 6,
    });
    await withdrawThroughApi(borrower, 20_000);
    await markPaid(finance.api, (await latestDisbursement(borrower)).id, 'E2E-HOME-PAYOUT');

    // 54 days on, at 11:00 in Manila: the first instalment, due a month after the payout, is ~24 days late.
    const later = new Date(`${manilaToday()}T03:00:00.000Z`);
    later.setUTCDate(later.getUTCDate() + 54);
    clockOffsetMs = later.getTime() - Date.now();
    await runningServer().restart({
      TEST_CLOCK_START: later.toISOString(),
      PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PAYMENTS_WEBHOOK_CHANNEL: 'gcash',
      JOBS_ENABLED: 'false',
    });
    const financeApi = new ApiSession();
    await financeApi.login(finance.username, finance.password);
    const before = (await staffLedger(financeApi, borrower.applicationId)).position;
    expect(before.daysPastDue).toBeGreaterThan(3);
    expect(before.lateChargesDueMinor).toBeGreaterThan(0);
    const dueNow = `₱${(before.amountDueNowMinor / 100).toLocaleString('en-PH', { minimumFractionDigits: 2 })}`;

    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await borrowerPage(viewport, borrower);
      try {
        const card = page.getByRole('region', { name: 'Your payment is overdue' });
        await card.waitFor();
        expect((await regionsInOrder(page))[0]).toBe('Your payment is overdue');
        expect(await card.getByTestId('due-now-amount').textContent()).toBe(dueNow);
        expect(await card.getByTestId('days-late').textContent()).toMatch(
          new RegExp(`^Days late: ${before.daysPastDue} · since `),
        );
        await card.getByText('Late charges').waitFor();
        expect(await page.getByText(/Congratulations/).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Withdraw', exact: true }).count()).toBe(1);
        await screenshot(page, `loan-home-overdue-${viewport}`);
        await check(page);
      } finally {
        await context.close();
      }
    }

    // The borrower pays exactly that amount; the provider passes the loan number on without its dashes.
    const written = borrower.loanNumber.replaceAll('-', '');
    expect((await providerPaysLoan(written, before.amountDueNowMinor)).outcome).toBe('applied');
    const after = (await staffLedger(financeApi, borrower.applicationId)).position;
    expect(after.overdueMinor).toBe(0);
    expect(after.amountDueNowMinor).toBe(0);
    expect(after.lateChargesDueMinor).toBe(0);

    const phone = await borrowerPage('phone', borrower);
    try {
      const next = phone.page.getByRole('region', { name: /^Next payment due / });
      await next.waitFor();
      expect(await phone.page.getByRole('region', { name: 'Your payment is overdue' }).count()).toBe(0);
      const payments = phone.page.getByRole('region', { name: 'Payments received' });
      await payments.getByText(dueNow, { exact: true }).waitFor();
      // Its receipt: the amount, and where it went (late charges first).
      await payments
        .getByRole('link', { name: /^View receipt/ })
        .first()
        .click();
      const receipt = phone.page.getByRole('article', { name: 'Payment receipt' });
      await receipt.waitFor();
      await receipt.getByText(dueNow).first().waitFor();
      await receipt
        .getByText(/Late charges/)
        .first()
        .waitFor();
      await screenshot(phone.page, 'loan-home-receipt-phone');
      await check(phone.page);
      await phone.page.goto('/wallet');
      await phone.page.getByRole('region', { name: /^Next payment due / }).waitFor();
      await screenshot(phone.page, 'loan-home-up-to-date-phone');
      await check(phone.page);

      // Finance receives ₱100 more than the payoff: the loan closes, the ₱100 is held for the borrower.
      const { payoffMinor } = (await staffLedger(financeApi, borrower.applicationId)).position;
      expectStatus(
        await financeApi.request('POST', `/api/staff/loans/${borrower.applicationId}/repayments`, {
          amount: ((payoffMinor + 10_000) / 100).toFixed(2),
          receivedOn: manilaToday(later),
          channel: 'gcash',
          reference: 'GC-E2E-PAYOFF-PLUS',
        }),
        201,
        'record the payoff and ₱100 more',
      );
      const closed = await staffLedger(financeApi, borrower.applicationId);
      expect(closed.status).toBe('closed');
      expect(closed.position.creditMinor).toBe(10_000);

      await phone.page.reload();
      const paid = phone.page.getByRole('region', { name: /^Paid in full on / });
      await paid.waitFor();
      expect(await paid.getByTestId('credit-held').textContent()).toBe(
        '₱100.00 you paid above what you owed is held for you and will be sent back to you.',
      );
      // The schedule keeps its history: what each instalment was and that it was paid, never "₱0.00" paid.
      const schedule = phone.page.getByRole('region', { name: 'Repayment schedule' });
      await schedule.getByText(/^Total to repay ₱/).waitFor();
      expect(await schedule.getByText('Total to repay ₱0.00, of which interest ₱0.00.').count()).toBe(0);
      await schedule
        .getByText(/^Settled by the payoff · /)
        .first()
        .waitFor();
      await screenshot(phone.page, 'loan-home-paid-in-full-phone');
      await check(phone.page);

      // Finance sends the ₱100 back with the transfer's reference; the borrower sees it.
      expectStatus(
        await financeApi.request('POST', `/api/staff/loans/${borrower.applicationId}/refunds`, {
          amount: '100',
          reference: 'GC-E2E-REFUND',
        }),
        201,
        'refund the credit',
      );
      await phone.page.reload();
      await phone.page.getByRole('region', { name: /^Paid in full on / }).waitFor();
      const refunded = phone.page.getByRole('list', { name: 'Money sent back to you' });
      await refunded.getByText(/^₱100\.00 sent back to you on .+ \(ref\. GC-E2E-REFUND\)$/).waitFor();
      expect(await phone.page.getByTestId('credit-held').count()).toBe(0);
      await screenshot(phone.page, 'loan-home-refunded-phone');
    } finally {
      await phone.context.close();
    }
  });
});
