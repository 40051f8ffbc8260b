import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeFindings } from './helpers-axe';
import { expectStatus } from './support/api';
import {
  type Borrower,
  borrowerWithApprovedLoan,
  logInInBrowser,
  withdrawThroughApi,
} from './support/borrower';
import { axePage, checkedSizes, launchBrowser, screenshot, uniquePhone } from './support/browser';
import { runningServer } from './support/server';
import { markPaid, type StaffMember, staffMember } from './support/staff';

/**
 * Paying made easy (issue #32), in a real browser at phone and desktop width: out of the box the ways to
 * pay are examples, marked so nobody pays to them; once the lender sets PAYMENT_CHANNELS with a QR Ph
 * account, a repaying borrower copies the loan number (the clipboard holds it), sees the QR Ph code, reads
 * a reversed payment's reason without the page scrolling sideways, opens the receipts of a payment and of
 * the payout and downloads one as a PDF. Every screen passes axe (no serious or critical finding).
 */

/** A QR Ph account that reaches nobody: a real bank code, an account number of zeros and ones. */
const lenderChannels = [
  {
    code: 'gcash',
    name: 'GCash',
    accountDetails: 'GCash · Hiram Test Lending · 0917 000 1111',
    accountNumber: '09170001111',
    instructions: 'Send Money → Express Send, or scan the code.',
    qrPh: {
      type: 'p2p',
      bic: 'GXCHPHM2XXX',
      accountNumber: '000111222333',
      merchantName: 'Hiram Test Lending',
      merchantCity: 'Makati City',
    },
  },
  { code: 'cash', name: 'Cash at the office', accountDetails: null, instructions: null },
];

const LONG_REFERENCE = 'INSTAPAY-20261127-0000000000000000000000000000000000000000000000000042';
const REVERSAL_REASON = 'Recalled by the sending bank: the transfer bounced';

let browser: Browser;
let officer: StaffMember;
let finance: StaffMember;
let borrower: Borrower & { applicationId: string; loanNumber: string };
let payoutId: string;
let reversedPaymentId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  officer = await staffMember('officer', uniquePhone());
  finance = await staffMember('finance', uniquePhone());
  borrower = await borrowerWithApprovedLoan(officer.api, {
    fullName: 'Perla Villanueva Santos',
    amount: 50_000,
    termMonths: 6,
  });
  payoutId = await withdrawThroughApi(borrower, 20_000);
  await markPaid(finance.api, payoutId, 'E2E-PAYOUT-62');
  const paid = await finance.api.request<{ id: string }>(
    'POST',
    `/api/staff/loans/${borrower.applicationId}/repayments`,
    { amount: '1500', receivedOn: manilaToday(), channel: 'gcash', reference: 'GC-E2E-62-OK' },
  );
  expectStatus(paid, 201, 'record a payment');
  const bounced = await finance.api.request<{ id: string }>(
    'POST',
    `/api/staff/loans/${borrower.applicationId}/repayments`,
    { amount: '700', receivedOn: manilaToday(), channel: 'gcash', reference: LONG_REFERENCE },
  );
  expectStatus(bounced, 201, 'record a payment to reverse');
  reversedPaymentId = bounced.body.id;
  expectStatus(
    await finance.api.request('POST', `/api/staff/repayments/${reversedPaymentId}/reverse`, {
      reason: REVERSAL_REASON,
    }),
    200,
    'reverse it',
  );
});
afterAll(async () => {
  await browser?.close();
});

function manilaToday() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(new Date());
}

/** The borrower signed in, in a window at a width that may use the clipboard, axe-ready (`axePage`). */
async function open(viewport: keyof typeof checkedSizes) {
  const { context, page } = await axePage(browser, checkedSizes[viewport], {
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await logInInBrowser(page, borrower.phone, borrower.password);
  return { context, page };
}

/** The page is no wider than the window: nothing scrolls sideways (else: the elements that stick out). */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width, offenders } = await page.evaluate(() => {
    const width = window.innerWidth;
    const right = (rect: DOMRect) => rect.right + window.scrollX;
    const offenders: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && offenders.length < 5; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = node instanceof Element ? node.getBoundingClientRect() : range.getBoundingClientRect();
      if (right(box) > width + 0.5 && (node instanceof Text ? node.textContent?.trim() : true)) {
        const element = node instanceof Element ? node : node.parentElement;
        offenders.push(
          `${element?.tagName.toLowerCase()}.${element?.className} ${Math.round(right(box))} "${node.textContent?.slice(0, 40)}"`,
        );
      }
    }
    return { scroll: document.documentElement.scrollWidth, width, offenders };
  });
  expect(
    scroll,
    `the page is ${scroll - width}px wider than the window: ${offenders.join('; ')}`,
  ).toBeLessThanOrEqual(width);
}

/** axe's serious findings once the screen's transitions (300 ms at most) have ended. */
async function seriousFindings(page: Page): Promise<string[]> {
  await page.waitForTimeout(300);
  return seriousAxeFindings(page);
}

describe('paying out of the box', () => {
  it('shows the shipped channels as examples nobody should pay to', async () => {
    const { context, page } = await open('phone');
    try {
      await page.goto('/wallet');
      const pay = page.getByRole('region', { name: 'How to pay' });
      await pay.getByText('Example payment details: do not pay').waitFor();
      expect(await pay.getByText('Example', { exact: true }).count()).toBe(2);
      expect(await pay.getByRole('img').count()).toBe(0);
      expect(await pay.getByRole('button', { name: /^Copy Account/ }).count()).toBe(0);
      await pay.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      expect(await seriousFindings(page)).toEqual([]);
      await screenshot(page, 'paying-examples-phone');
      await pay.screenshot({ path: 'screenshots/paying-examples-section-phone.png' });
    } finally {
      await context.close();
    }
  });
});

describe('paying once the lender set up its channels', () => {
  beforeAll(async () => {
    await runningServer().restart({ PAYMENT_CHANNELS: JSON.stringify(lenderChannels) });
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`copies the reference, shows the QR Ph code, the payments and both receipts (${viewport})`, async () => {
      const { context, page } = await open(viewport);
      try {
        await page.goto('/wallet');
        const pay = page.getByRole('region', { name: 'How to pay' });
        await pay.waitFor();
        expect(await pay.getByText('Example payment details: do not pay').count()).toBe(0);

        // The loan number, copied with one tap: the button says so and the clipboard holds it.
        await pay.getByRole('button', { name: 'Copy Reference: your loan number' }).click();
        await pay.getByRole('button', { name: 'Copied' }).waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(borrower.loanNumber);

        // The QR Ph code, drawn, with the apps that scan it and the account written out beside it.
        const card = pay.getByTestId('channel-gcash');
        const code = card.getByRole('img', { name: /^QR Ph code to pay .*by GCash, reference HL-/ });
        await code.scrollIntoViewIfNeeded();
        await page.waitForFunction(
          () => {
            const img = document.querySelector<HTMLImageElement>('[data-testid="qr-gcash"] img');
            return img?.complete === true && img.naturalWidth > 0;
          },
          undefined,
          { timeout: 10_000 },
        );
        await card.getByText('Scan with GCash, Maya or any bank app that takes QR Ph.').waitFor();
        await card.getByText('GCash · Hiram Test Lending · 0917 000 1111').waitFor();
        const svg = await page.request.get(`/api/wallet/payment-qr/gcash?format=svg`);
        expect(svg.headers()['content-type']).toContain('image/svg+xml');
        await expectNoSidewaysScroll(page);
        expect(await seriousFindings(page)).toEqual([]);
        await screenshot(page, `paying-how-to-pay-${viewport}`);
        await pay.screenshot({ path: `screenshots/paying-how-to-pay-section-${viewport}.png` });

        // The payments: the reversed one says why, its long reference wraps, nothing scrolls sideways.
        const payments = page.getByRole('region', { name: 'Payments received' });
        await payments.scrollIntoViewIfNeeded();
        const reversed = payments.getByTestId('payment').filter({ hasText: LONG_REFERENCE });
        await reversed.getByText('Reversed', { exact: true }).waitFor();
        await reversed.getByText(new RegExp(`^Reversed on .*: ${REVERSAL_REASON}$`)).waitFor();
        const [badge, amount] = await Promise.all([
          reversed.getByText('Reversed', { exact: true }).boundingBox(),
          reversed.getByText('₱700.00', { exact: true }).boundingBox(),
        ]);
        // The badge sits beside the amount, never over it.
        expect(badge!.x).toBeGreaterThanOrEqual(amount!.x + amount!.width);
        await expectNoSidewaysScroll(page);
        await screenshot(page, `paying-payments-${viewport}`);
        await payments.screenshot({ path: `screenshots/paying-payments-section-${viewport}.png` });

        // The receipt of the reversed payment: REVERSED with the reason, and its PDF.
        await reversed.getByRole('link', { name: /^View receipt/ }).click();
        const receipt = page.getByRole('article', { name: 'Payment receipt' });
        await receipt.waitFor();
        await receipt.getByTestId('receipt-reversal').getByText(REVERSAL_REASON, { exact: false }).waitFor();
        expect(await receipt.getByTestId('receipt-number').textContent()).toMatch(
          new RegExp(`^Receipt no\\. ${borrower.loanNumber}-R[0-9A-F]{8}$`),
        );
        await expectNoSidewaysScroll(page);
        expect(await seriousFindings(page)).toEqual([]);
        await screenshot(page, `paying-receipt-reversed-${viewport}`);
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          receipt.getByRole('link', { name: 'Download receipt (PDF)' }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(
          new RegExp(`^receipt-${borrower.loanNumber}-R[0-9A-F]{8}\\.pdf$`),
        );
        expect(
          readFileSync((await download.path())!)
            .subarray(0, 5)
            .toString('latin1'),
        ).toBe('%PDF-');

        // Back to the wallet, and the payout's receipt: borrowed, fee, sent.
        await page.getByRole('link', { name: 'Back to wallet' }).click();
        const payouts = page.getByRole('region', { name: 'Withdrawals' });
        await payouts.getByRole('link', { name: /^View receipt/ }).click();
        const payout = page.getByRole('article', { name: 'Payout receipt' });
        await payout.waitFor();
        await payout.getByText('E2E-PAYOUT-62').waitFor();
        expect(await payout.getByTestId('receipt-amounts').textContent()).toContain(
          'Amount borrowed₱20,000.00',
        );
        await expectNoSidewaysScroll(page);
        expect(await seriousFindings(page)).toEqual([]);
        await screenshot(page, `paying-receipt-payout-${viewport}`);
      } finally {
        await context.close();
      }
    });
  }
});
