import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeFindings } from './helpers-axe';
import { expectStatus } from './support/api';
import {
  borrowerWithApprovedLoan,
  latestDisbursement,
  logInInBrowser,
  withdrawThroughApi,
} from './support/borrower';
import { axePage, launchBrowser, screenshot, viewports } from './support/browser';
import { markPaid, type StaffMember, staffMember } from './support/staff';

/**
 * The statement of account in the browser (issue #10): offered on the wallet once the loan is paid out,
 * downloaded as a PDF with the session cookie, and prominent in the paid-in-full message once closed; the
 * wallet passes axe at phone and desktop width with the link on it.
 */

let browser: Browser;
let officer: StaffMember;
let finance: StaffMember;

beforeAll(async () => {
  browser = await launchBrowser();
  officer = await staffMember('officer');
  finance = await staffMember('finance');
});
afterAll(async () => {
  await browser?.close();
});

/** A browser window at a width that takes downloads, axe-ready (`axePage`). */
const newPage = (viewport: keyof typeof viewports) =>
  axePage(browser, viewports[viewport], { acceptDownloads: true });

async function downloadStatement(page: Page, name: string): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download statement (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^statement-HL-\d{2}-\d{6}-\d{4}-\d{2}-\d{2}\.pdf$/);
  const path = await download.path();
  const pdf = readFileSync(path);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await screenshot(page, name);
  return pdf;
}

describe('statement of account', () => {
  it('is offered once paid out, downloads as a PDF, and is prominent when the loan is paid in full', async () => {
    const borrower = await borrowerWithApprovedLoan(officer.api, { amount: 50_000, termMonths: 6 });
    await withdrawThroughApi(borrower, 10_000);
    await markPaid(finance.api, (await latestDisbursement(borrower)).id, 'E2E-STATEMENT');

    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await newPage(viewport);
      try {
        await logInInBrowser(page, borrower.phone, borrower.password);
        await page.goto('/wallet');
        await page.getByRole('link', { name: 'Download statement (PDF)' }).waitFor();
        await downloadStatement(page, `statement-open-${viewport}`);
        expect(await seriousAxeFindings(page)).toEqual([]);
      } finally {
        await context.close();
      }
    }

    // Finance records the payoff: the loan closes, and the statement is the first thing offered.
    const wallet = await borrower.api.request<{
      repayment: { position: { payoffMinor: number } };
      application: { id: string };
    }>('GET', '/api/wallet');
    const payoff = wallet.body.repayment.position.payoffMinor;
    const paid = await finance.api.request<{ loanStatus: string }>(
      'POST',
      `/api/staff/loans/${borrower.applicationId}/repayments`,
      {
        amount: (payoff / 100).toFixed(2),
        receivedOn: new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(new Date()),
        channel: 'gcash',
        reference: `E2E-PAYOFF-${borrower.loanNumber}`,
      },
    );
    expectStatus(paid, 201, 'record payoff');
    expect(paid.body.loanStatus).toBe('closed');

    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await newPage(viewport);
      try {
        await logInInBrowser(page, borrower.phone, borrower.password);
        await page.goto('/wallet');
        // Paid in full is what the loan's card leads with (issue #32), the statement prominent on it.
        const now = page.getByTestId('loan-now');
        await now.getByText('Nothing more is owed on this loan.', { exact: false }).waitFor();
        expect(await now.getAttribute('data-kind')).toBe('paidInFull');
        const link = now.getByRole('link', { name: 'Download statement (PDF)' });
        expect(await link.getAttribute('data-variant')).toBe('filled');
        await downloadStatement(page, `statement-closed-${viewport}`);
        expect(await seriousAxeFindings(page)).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
