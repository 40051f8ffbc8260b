import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from './support/api';
import {
  type Borrower,
  latestDisbursement,
  logInInBrowser,
  signUpBorrower,
  submitApplication,
  withdrawThroughApi,
} from './support/borrower';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { approve, markPaid, type StaffMember, staffMember } from './support/staff';

/**
 * Loan products (issue #31, docs/decisions/034): an admin creates a product in the back office and later
 * raises its late charge (its second version); a borrower applied under the first version, and that loan's
 * disclosure, schedule and statement do not move; a new application under the second version shows the new
 * late charge before signing.
 */
let browser: Browser;
let admin: StaffMember;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await staffMember('admin');
});
afterAll(async () => {
  await browser?.close();
});

/** Types into a labelled field, replacing what it held. */
async function fill(page: Page, label: string | RegExp, value: string, nth = 0) {
  const field = page.getByLabel(label, { exact: typeof label === 'string' }).nth(nth);
  await field.fill(value);
}

/** What the borrower's statement of account says, as text (fetched by their signed-in browser). */
async function statementText(page: Page): Promise<string> {
  const base64 = await page.evaluate(async () => {
    const response = await fetch('/api/wallet/statement.pdf?lang=en');
    if (!response.ok) throw new Error(`statement: ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  const pdf = join(mkdtempSync(join(tmpdir(), 'hiram-statement-')), 'statement.pdf');
  writeFileSync(pdf, Buffer.from(base64, 'base64'));
  return execFileSync('/usr/bin/pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
}

/** Everything that prices the borrower's loan, as the borrower's API and statement show it. */
async function loanAsSigned(borrower: Borrower, page: Page) {
  const wallet = await borrower.api.request<{ schedule: unknown }>('GET', '/api/wallet');
  expectStatus(wallet, 200, 'wallet');
  const terms = await borrower.api.request<{ signed: unknown }>('GET', '/api/wallet/terms');
  expectStatus(terms, 200, 'signed terms');
  return { wallet: wallet.body, signed: terms.body.signed, statement: await statementText(page) };
}

describe('loan products', () => {
  it('an admin creates a product and a second version; the v1 loan keeps its terms; v2 applications get the new ones', async () => {
    const staff = await newPage(browser, 'desktop');
    const phone = await newPage(browser, 'phone');
    const later = await newPage(browser, 'phone');
    try {
      // The admin creates "Salary loan" in the back office.
      await logInInBrowser(staff.page, admin.username, admin.password);
      await staff.page.waitForURL('**/admin/home');
      await staff.page.getByRole('link', { name: 'Loan Products' }).click();
      await staff.page.getByRole('table', { name: 'Loan Products' }).getByText('Personal loan').waitFor();
      await staff.page.getByRole('link', { name: 'New product' }).click();
      await staff.page.getByRole('heading', { name: 'New loan product' }).waitFor();
      await fill(staff.page, /^Code/, 'salary-loan');
      await fill(staff.page, 'Name in English', 'Salary loan');
      await fill(staff.page, 'Name in Filipino', 'Pautang sa sahod');
      await fill(staff.page, 'Name in Chinese', '工资贷款');
      await fill(staff.page, 'Name in Khmer', 'ប្រាក់កម្ចីប្រាក់ខែ');
      for (const [label, borrowerValue, staffValue] of [
        ['Minimum', '10,000', '10,000'],
        ['Maximum', '100,000', '200,000'],
        ['Step', '10,000', '10,000'],
      ] as const) {
        await fill(staff.page, label, borrowerValue, 0);
        await fill(staff.page, label, staffValue, 1);
      }
      await fill(staff.page, /^Periods offered/, '3, 6, 12');
      await fill(staff.page, /^Period chosen first/, '6');
      await fill(staff.page, /^Monthly interest rate/, '3');
      await fill(staff.page, /^Second approval above/, '150,000');
      await fill(staff.page, /^First-loan limit/, '100,000');
      // Above the legal ceiling first: refused on its field, nothing saved.
      await fill(staff.page, /^Late charge a month/, '6');
      await staff.page.getByRole('button', { name: 'Create product' }).click();
      await staff.page
        .getByText('The late charge must be from 0% to 5% a month (the legal ceiling).')
        .waitFor();
      await screenshot(staff.page, 'products-form-refused-desktop');
      await fill(staff.page, /^Late charge a month/, '0');
      await staff.page.getByRole('button', { name: 'Create product' }).click();
      await staff.page.getByRole('heading', { name: 'Current terms (version 1)' }).waitFor();
      expect(await staff.page.getByRole('heading', { level: 1 }).textContent()).toBe('Salary loan');
      const productUrl = staff.page.url();
      await screenshot(staff.page, 'products-v1-desktop');

      // A borrower (390 px) chooses it on step 1 and applies under version 1.
      const borrower = await signUpBorrower(phone.page);
      await phone.page.goto('/loan/application');
      const choice = phone.page.getByRole('group', { name: 'Loan product' });
      await choice.waitFor();
      await choice.getByRole('radio', { name: /^Salary loan/ }).check();
      await phone.page.getByLabel('Loan amount').fill('50000');
      await phone.page.getByLabel('Loan amount').blur();
      await phone.page.getByRole('radio', { name: '6 months' }).check();
      const lateCharge = phone.page.locator('[data-figure="lateCharge"] dd');
      await expect.poll(() => lateCharge.textContent()).toContain('None');
      expect(await phone.page.locator('[data-figure="monthlyRate"] dd').textContent()).toBe('3%');
      await screenshot(phone.page, 'products-step1-choice-phone');
      const offered = await borrower.api.request<{ items: { code: string; versionId: string }[] }>(
        'GET',
        '/api/products',
      );
      const v1 = offered.body.items.find((p) => p.code === 'salary-loan')!;
      const application = await submitApplication(borrower, {
        fullName: 'Rosa Products',
        amount: 50_000,
        termMonths: 6,
        productVersionId: v1.versionId,
      });
      await approve(admin.api, application.id, 600);
      await withdrawThroughApi(borrower, 50_000);
      await markPaid(admin.api, (await latestDisbursement(borrower)).id, 'BDO-PRODUCTS-1');
      const before = await loanAsSigned(borrower, phone.page);
      expect(JSON.stringify(before.signed)).toContain('"lateCharge"');

      // The admin raises the late charge: version 2.
      await staff.page.goto(productUrl);
      await staff.page.getByRole('link', { name: 'Edit' }).click();
      await staff.page.getByText('Saving makes version 2.', { exact: false }).waitFor();
      await fill(staff.page, /^Late charge a month/, '3');
      await fill(staff.page, /^Why this change/, 'Late payments rose this quarter');
      await screenshot(staff.page, 'products-edit-desktop');
      await staff.page.getByRole('button', { name: 'Save new version' }).click();
      await staff.page.getByRole('heading', { name: 'Current terms (version 2)' }).waitFor();
      const history = staff.page.getByRole('region', { name: 'Version history' });
      await history.getByText('Late charge a month: 0% → 3%').waitFor();
      await history.getByText('Why: Late payments rose this quarter').waitFor();
      await screenshot(staff.page, 'products-v2-history-desktop');

      // The v1 loan: the same signed disclosure, schedule and statement.
      const after = await loanAsSigned(borrower, phone.page);
      expect(after.signed).toEqual(before.signed);
      expect(after.wallet).toEqual(before.wallet);
      expect(after.statement).toBe(before.statement);
      await phone.page.goto('/wallet');
      await phone.page.getByText(application.loanNumber).first().waitFor();
      await screenshot(phone.page, 'products-v1-loan-wallet-phone');

      // A new borrower sees version 2's late charge before signing.
      await signUpBorrower(later.page);
      await later.page.goto('/loan/application');
      await later.page
        .getByRole('group', { name: 'Loan product' })
        .getByRole('radio', { name: /^Salary loan/ })
        .check();
      await later.page.getByLabel('Loan amount').fill('50000');
      await later.page.getByLabel('Loan amount').blur();
      await expect
        .poll(() => later.page.locator('[data-figure="lateCharge"] dd').textContent())
        .toContain('3% a month');
      await screenshot(later.page, 'products-step1-v2-phone');
    } finally {
      await staff.context.close();
      await phone.context.close();
      await later.context.close();
    }
  });

  it("a payout with a fee: gross, fee and net on the borrower's preview and receipt and on finance's queue", async () => {
    // A product whose fee (₱500 on the first payout and 1% of each) is taken from the payout.
    const created = await admin.api.request<{ id: string }>('POST', '/api/staff/products', {
      code: 'fee-loan',
      terms: {
        names: { en: 'Loan with a fee', fil: 'Pautang na may bayad', zh: '收费贷款', km: 'ប្រាក់កម្ចីមានកម្រៃ' },
        borrowerAmount: { min: 10_000, max: 100_000, step: 10_000 },
        staffAmount: { min: 10_000, max: 100_000, step: 10_000 },
        termsMonths: [6],
        defaultTermMonths: 6,
        monthlyRateBp: 300,
        fees: { flatMinor: 50_000, percentBp: 100, collection: 'deducted_from_payout' },
        lateChargeMonthlyBp: 0,
        graceDays: 3,
        fourEyesThresholdMinor: 10_000_000,
        eligibility: { firstLoanMaxAmount: 100_000, repeat: null },
      },
    });
    expectStatus(created, 201, 'create the product with a fee');
    const phone = await newPage(browser, 'phone');
    const staff = await newPage(browser, 'desktop');
    try {
      const borrower = await signUpBorrower(phone.page);
      const offered = await borrower.api.request<{ items: { code: string; versionId: string }[] }>(
        'GET',
        '/api/products',
      );
      const version = offered.body.items.find((p) => p.code === 'fee-loan')!;
      const application = await submitApplication(borrower, {
        fullName: 'Nilda Fee Test',
        amount: 50_000,
        termMonths: 6,
        productVersionId: version.versionId,
      });
      await approve(admin.api, application.id, 600);

      // Before asking: ₱20,000 is ₱700 of fee (₱500 + 1%) and ₱19,300 sent.
      await phone.page.goto('/wallet');
      await phone.page.getByLabel('Amount (whole pesos)').fill('20000');
      await expect.poll(() => phone.page.getByTestId('preview-fee').textContent()).toBe('₱700.00');
      expect(await phone.page.getByTestId('preview-net').textContent()).toBe('₱19,300.00');
      await screenshot(phone.page, 'products-fee-preview-phone');
      const payoutId = await withdrawThroughApi(borrower, 20_000);

      // Finance sends the net amount and sees what was taken.
      await logInInBrowser(staff.page, admin.username, admin.password);
      await staff.page.waitForURL('**/admin/home');
      await staff.page.goto('/admin/disbursements');
      const row = staff.page.locator('tbody tr', { hasText: application.loanNumber });
      await row.getByText('Send ₱19,300.00').waitFor();
      await screenshot(staff.page, 'products-fee-disbursements-desktop');
      await row.locator('button[aria-haspopup="menu"]').first().click();
      await staff.page.getByRole('menuitem', { name: 'Mark Paid', exact: true }).click();
      const dialog = staff.page.getByRole('dialog');
      await dialog.getByText('Send ₱19,300.00').waitFor();
      await dialog.getByText('₱20,000.00 less the fee of ₱700.00').waitFor();
      await screenshot(staff.page, 'products-fee-mark-paid-desktop', { fullPage: false });
      await staff.page.keyboard.press('Escape');
      await markPaid(admin.api, payoutId, 'BDO-FEE-85');

      // The borrower's receipt: borrowed, fee, sent.
      await phone.page.goto(`/wallet/receipts/payouts/${payoutId}`);
      const amounts = phone.page.getByTestId('receipt-amounts');
      await amounts.waitFor();
      const text = (await amounts.textContent()) ?? '';
      expect(text).toContain('Amount borrowed₱20,000.00');
      expect(text).toContain('Fee deducted₱700.00');
      expect(text).toContain('Sent to you₱19,300.00');
      await screenshot(phone.page, 'products-fee-receipt-phone');
    } finally {
      await phone.context.close();
      await staff.context.close();
    }
  });

  it('the back office screens at 390 px', async () => {
    const { context, page } = await newPage(browser, 'phone');
    try {
      await logInInBrowser(page, admin.username, admin.password);
      await page.waitForURL('**/admin/home');
      await page.goto('/admin/products');
      await page.getByRole('table', { name: 'Loan Products' }).getByText('Salary loan').waitFor();
      await screenshot(page, 'products-list-phone');
      await page.getByRole('link', { name: 'Salary loan' }).click();
      await page.getByRole('heading', { name: 'Current terms (version 2)' }).waitFor();
      await screenshot(page, 'products-detail-phone');
      await page.getByRole('button', { name: 'Retire' }).click();
      const dialog = page.getByRole('dialog', { name: 'Retire Salary loan' });
      await dialog.waitFor();
      await screenshot(page, 'products-retire-phone', { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { name: 'Edit Salary loan' }).waitFor();
      await screenshot(page, 'products-edit-phone');
    } finally {
      await context.close();
    }
  });
});
