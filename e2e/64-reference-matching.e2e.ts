import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeFindings } from './helpers-axe';
import { ApiSession, expectStatus } from './support/api';
import {
  borrowerWithApprovedLoan,
  latestDisbursement,
  logInInBrowser,
  withdrawThroughApi,
} from './support/borrower';
import { axePage, checkedSizes, launchBrowser, screenshot, uniquePhone } from './support/browser';
import { providerPays as signedPayment } from './support/payments';
import { runningServer } from './support/server';
import { markPaid, type StaffMember, staffMember } from './support/staff';

/**
 * Reference matching that forgives formatting (issue #32), in a real browser at 390 px and 1440 px: the
 * provider's webhook applies a payment whose reference is the loan number written without dashes
 * (HL26000001), and finance finds it by typing it that way; two payments with a wrong reference are kept,
 * and Unapplied suggests the likely loan of each — by the payer's phone, and by the amount of the
 * instalment falling due — with why, in four languages; finance applies each suggestion in one step,
 * still confirming it.
 */
const WEBHOOK_SECRET = 'e2e-webhook-secret-reference-matching-0123456789';
const webhookEnv = {
  PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PAYMENTS_WEBHOOK_CHANNEL: 'gcash',
  JOBS_ENABLED: 'false',
};

let browser: Browser;
let officer: StaffMember;
let finance: StaffMember;
/** How far the server's clock runs ahead of ours (TEST_CLOCK_START), so signatures carry its time. */
let serverAheadMs = 0;
const serverNow = () => new Date(Date.now() + serverAheadMs);
const manilaDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(at);

beforeAll(async () => {
  browser = await launchBrowser();
  await runningServer().restart(webhookEnv);
  // Staff phones are mobile numbers (issue #32's phone rule): given, not left to the helper's default.
  officer = await staffMember('officer', uniquePhone());
  finance = await staffMember('finance', uniquePhone());
});
afterAll(async () => {
  await browser?.close();
});

/** The provider reports a payment, signed as it signs them. */
async function providerPays(fields: {
  paymentReference: string;
  amountMinor: number;
  payerName?: string;
  payerPhone?: string;
  memo?: string;
}) {
  return signedPayment(
    WEBHOOK_SECRET,
    { reference: `GC-${randomUUID().slice(0, 13).toUpperCase()}`, ...fields },
    serverNow(),
  );
}

async function staffPage(
  viewport: keyof typeof checkedSizes,
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await axePage(browser, checkedSizes[viewport]);
  await logInInBrowser(page, finance.username, finance.password);
  return { context, page };
}

/** Serious and critical axe findings on the page as it is now, and whether it scrolls sideways. */
async function check(page: Page, what: string) {
  await page.waitForLoadState('networkidle').catch(() => {});
  const findings = await seriousAxeFindings(page);
  expect(findings, what).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Chooses one of a list row's actions from its "Actions" menu. */
async function chooseRowAction(page: Page, row: ReturnType<Page['locator']>, name: string) {
  await row.getByRole('button', { name: /^Actions for / }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** A borrower whose loan paid out ₱`pesos` today. */
async function paidOutBorrower(fullName: string, pesos: number) {
  const borrower = await borrowerWithApprovedLoan(officer.api, { fullName, amount: 50_000, termMonths: 6 });
  await withdrawThroughApi(borrower, pesos);
  await markPaid(finance.api, (await latestDisbursement(borrower)).id, `E2E-RM-${randomUUID().slice(0, 8)}`);
  return borrower;
}

/** What finance's language switch would leave behind: the language kept in local storage. */
async function switchLanguage(page: Page, lang: 'en' | 'fil' | 'zh' | 'km') {
  await page.evaluate((l) => window.localStorage.setItem('hiram.lang', l), lang);
  await page.reload();
}

describe('reference matching and suggestions (issue #32)', () => {
  it('HL26000001 is applied; payments with a wrong reference are suggested by phone and by amount and applied by finance', async () => {
    const rosa = await paidOutBorrower('Rosa Villanueva', 20_000);
    const dario = await paidOutBorrower('Dario Mendoza', 13_000);

    // 1. The provider passes the loan number on without its dashes: applied to Rosa's loan at once.
    const written = rosa.loanNumber.replaceAll('-', '');
    expect(written).toMatch(/^HL\d{8}$/);
    expect(
      await providerPays({ paymentReference: written, amountMinor: 150_000, payerName: 'Rosa V.' }),
    ).toEqual(expect.objectContaining({ outcome: 'applied' }));

    // 2. Rosa pays again from her GCash with a reference that names no loan: kept, with her phone.
    const national = rosa.phone.slice(1);
    const rosaPhone = `+63 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`;
    expect(
      await providerPays({
        paymentReference: 'bayad utang',
        amountMinor: 70_000,
        payerName: 'ROSA VILLANUEVA',
        payerPhone: rosaPhone,
        memo: 'para sa loan ko po',
      }),
    ).toEqual(expect.objectContaining({ outcome: 'unapplied', reason: 'unknown_reference' }));

    // 3. Twenty days on (a restart with the clock ahead), Dario pays his first instalment early, quoting
    // his account number instead of the loan number, from someone else's phone.
    const later = new Date(`${manilaDay(new Date())}T03:00:00.000Z`);
    later.setUTCDate(later.getUTCDate() + 20);
    serverAheadMs = later.getTime() - Date.now();
    await runningServer().restart({ ...webhookEnv, TEST_CLOCK_START: later.toISOString() });
    const financeApi = new ApiSession();
    await financeApi.login(finance.username, finance.password);
    const ledger = await financeApi.request<{
      position: { nextPayment: { dueDate: string; amountMinor: number } };
    }>('GET', `/api/staff/loans/${dario.applicationId}/ledger`);
    expectStatus(ledger, 200, 'ledger');
    const { dueDate, amountMinor: instalment } = ledger.body.position.nextPayment;
    expect(
      await providerPays({
        paymentReference: '0917-000-1234',
        amountMinor: instalment,
        payerName: 'M. Mendoza',
        payerPhone: '09990001234',
      }),
    ).toEqual(expect.objectContaining({ outcome: 'unapplied' }));
    const dueOn = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${dueDate}T00:00:00Z`));

    // Desktop: the Repayments list finds the applied payment by the number typed as the provider wrote it.
    const desk = await staffPage('desktop');
    try {
      await desk.page.goto('/admin/repayments');
      await desk.page.getByLabel('Loan ID or reference').fill(written.toLowerCase());
      await desk.page.getByRole('button', { name: 'Search' }).click();
      const found = desk.page.locator('tbody tr', { hasText: rosa.loanNumber });
      await found.getByText('₱1,500.00').waitFor();
      expect(await desk.page.locator('tbody tr').count()).toBe(1);
      await screenshot(desk.page, 'reference-matching-repayments-search-desktop');
      // Dario's loan, typed the same way, has no repayment yet: the search does filter.
      await desk.page.getByLabel('Loan ID or reference').fill(dario.loanNumber.replaceAll('-', ' '));
      await desk.page.getByRole('button', { name: 'Search' }).click();
      await desk.page.getByText('No results found.').waitFor();

      // Unapplied: each kept payment with the loan it likely belongs to, and why.
      await desk.page.goto('/admin/unapplied');
      const rosaRow = desk.page.locator('tbody tr', { hasText: 'bayad utang' });
      await rosaRow.getByText("Payer's phone matches").waitFor();
      await rosaRow.getByRole('link', { name: rosa.loanNumber }).waitFor();
      await rosaRow.getByText('Rosa Villanueva', { exact: true }).waitFor();
      await rosaRow.getByText(`Phone: ${rosaPhone}`).waitFor();
      await rosaRow.getByText('Message: para sa loan ko po').waitFor();
      const darioRow = desk.page.locator('tbody tr', { hasText: '0917-000-1234' });
      await darioRow.getByText(`Amount matches the amount due on ${dueOn}`).waitFor();
      await darioRow.getByRole('link', { name: dario.loanNumber }).waitFor();
      await screenshot(desk.page, 'reference-matching-unapplied-desktop');
      await check(desk.page, 'Unapplied, desktop');

      // Finance applies Rosa's in one step: the confirmation has the loan filled in, with who and why.
      await rosaRow.getByRole('button', { name: `Apply to ${rosa.loanNumber}` }).click();
      const dialog = desk.page.getByRole('dialog', { name: 'Apply Payment to Loan' });
      await dialog.getByText(`Suggested loan: ${rosa.loanNumber} · Rosa Villanueva`).waitFor();
      expect(await dialog.getByLabel(/^Loan number/).inputValue()).toBe(rosa.loanNumber);
      await screenshot(desk.page, 'reference-matching-apply-suggested-desktop', { fullPage: false });
      await check(desk.page, 'Apply suggested, desktop');
      await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
      await desk.page.getByText(`₱700.00 applied to loan ${rosa.loanNumber}.`).waitFor();
      await rosaRow.getByText(`To loan ${rosa.loanNumber}`).waitFor();
    } finally {
      await desk.context.close();
    }

    // On a phone, in every language: the suggestion and why, no sideways scroll, axe-clean.
    const phone = await staffPage('phone');
    try {
      await phone.page.goto('/admin/unapplied');
      const why: Record<'en' | 'fil' | 'zh' | 'km', RegExp> = {
        en: /^Amount matches the amount due on /,
        fil: /^Tugma ang halaga sa dapat bayaran noong /,
        zh: /^金额与 .+ 的应还金额相符$/,
        km: /^ចំនួនទឹកប្រាក់ត្រូវនឹងចំនួនត្រូវបង់នៅថ្ងៃ /,
      };
      for (const lang of ['fil', 'zh', 'km', 'en'] as const) {
        await switchLanguage(phone.page, lang);
        const row = phone.page.locator('tbody tr', { hasText: '0917-000-1234' });
        await row.getByText(why[lang]).waitFor();
        await screenshot(phone.page, `reference-matching-unapplied-phone-${lang}`);
        await check(phone.page, `Unapplied, phone, ${lang}`);
      }

      // Dario's, from the row's menu (the sticky column, on screen at 390 px): confirmed, then applied.
      const row = phone.page.locator('tbody tr', { hasText: '0917-000-1234' });
      await chooseRowAction(phone.page, row, `Apply to ${dario.loanNumber}`);
      const dialog = phone.page.getByRole('dialog', { name: 'Apply Payment to Loan' });
      await dialog.getByText(`Amount matches the amount due on ${dueOn}`).waitFor();
      await screenshot(phone.page, 'reference-matching-apply-suggested-phone', { fullPage: false });
      await check(phone.page, 'Apply suggested, phone');
      await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
      await phone.page.getByText(new RegExp(`applied to loan ${dario.loanNumber}\\.`)).waitFor();
      await row.getByText(`To loan ${dario.loanNumber}`).waitFor();
    } finally {
      await phone.context.close();
    }

    // Both loans got their money; each application is in the audit trail as finance's.
    const after = await financeApi.request<{
      position: { amountDueNowMinor: number; nextPayment: { dueDate: string } };
    }>('GET', `/api/staff/loans/${dario.applicationId}/ledger`);
    expect(after.body.position.nextPayment.dueDate > dueDate).toBe(true);
    const rosaLedger = await financeApi.request<{ repayments: { amountMinor: number }[] }>(
      'GET',
      `/api/staff/loans/${rosa.applicationId}/ledger`,
    );
    expect(rosaLedger.body.repayments.map((r) => r.amountMinor).sort()).toEqual([150_000, 70_000].sort());
  });
});
