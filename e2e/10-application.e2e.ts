import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationPictures, logInInBrowser, signUpBorrower } from './support/borrower';
import { holdRequests, launchBrowser, newPage, screenshot } from './support/browser';

let browser: Browser;
let pictures: Awaited<ReturnType<typeof applicationPictures>>;

beforeAll(async () => {
  browser = await launchBrowser();
  pictures = await applicationPictures();
});
afterAll(async () => {
  await browser?.close();
});

const section = (page: Page, name: string) => page.locator(`#section-${name}`);

/** Opens a step-2 section unless it is open already. */
async function open(page: Page, name: string) {
  const control = section(page, name).locator('button[aria-expanded]').first();
  if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
}

async function markOf(page: Page, name: string) {
  return section(page, name).locator('button[aria-expanded] [role="img"]').getAttribute('aria-label');
}

/** A signature drawn with the mouse: two strokes across the pad. */
async function drawSignature(page: Page) {
  const pad = page.getByTestId('signature-pad');
  // Ready: signature_pad is loaded and the quote the signature binds to has arrived.
  await page.locator('[data-testid="signature-pad"][data-ready]').waitFor();
  // The section may still be opening (its content slides in): bring the pad into view and wait until it
  // stays put with nothing (such as the fixed bottom bar) over where the strokes go.
  let box: { x: number; y: number; width: number; height: number } | null = null;
  await expect
    .poll(async () => {
      await pad.scrollIntoViewIfNeeded();
      const before = await pad.boundingBox();
      await page.waitForTimeout(150);
      box = await pad.boundingBox();
      if (!before || !box || before.x !== box.x || before.y !== box.y) return 'moving';
      return page.evaluate(
        ([left, top]) =>
          document.elementFromPoint(left as number, top as number)?.getAttribute('data-testid') ?? 'covered',
        [box.x + box.width / 2, box.y + 60],
      );
    })
    .toBe('signature-pad');
  if (!box) throw new Error('the signature pad is not visible');
  const { x, y, width } = box;
  for (const [from, to, lift] of [
    [0.08, 0.6, 0],
    [0.55, 0.9, 20],
  ] as const) {
    await page.mouse.move(x + width * from, y + 95 - lift);
    await page.mouse.down();
    for (let i = 1; i <= 24; i++) {
      await page.mouse.move(
        x + width * (from + ((to - from) * i) / 24),
        y + 90 - lift + Math.sin(i / 2.5) * 28,
        { steps: 2 },
      );
    }
    await page.mouse.up();
  }
}

describe("step 1's first load", () => {
  it('asks for the session, settings and application once each, and fetches the page before the app has run', async () => {
    const { context, page: signIn } = await newPage(browser, 'phone');
    try {
      await signUpBorrower(signIn);
      // A page of its own, signed in through the cookie: nothing of the sign-in page's requests in view.
      const page = await context.newPage();
      const asked: string[] = [];
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith('/api/') || /^\/assets\/(main|step1-page)-[^/]+\.js$/.test(pathname))
          asked.push(pathname);
      });
      // Main.js held back: what index.html's boot script asks for alone.
      const { release: releaseMain } = await holdRequests(page, '**/assets/main-*.js');
      await page.goto('/loan/application', { waitUntil: 'commit' });
      await expect
        .poll(() => [...asked].filter((path) => !path.startsWith('/assets/main-')).sort(), {
          timeout: 10_000,
        })
        .toEqual(
          [
            '/api/applications/mine',
            '/api/me',
            '/api/products',
            '/api/settings',
            expect.stringMatching(/^\/assets\/step1-page-/),
          ].sort(),
        );
      releaseMain();
      await page.getByText('Step 1 of 2').waitFor();
      await page.getByRole('heading', { name: 'How it works' }).waitFor();
      await page.waitForLoadState('networkidle');
      const api = asked.filter((path) => path.startsWith('/api/'));
      expect(api.sort()).toEqual(['/api/applications/mine', '/api/me', '/api/products', '/api/settings']);
    } finally {
      await context.close();
    }
  });
});

describe.each(['phone', 'desktop'] as const)('loan application in the browser (%s)', (viewport) => {
  it('applies in two steps, survives a reload half-way, submits, and cannot apply twice', async () => {
    const { context, page } = await newPage(browser, viewport);
    // The same borrower on a second device. A second tab in the same context would be a background
    // page, whose input Chromium throttles to about one event a second.
    const other = await newPage(browser, viewport);
    try {
      const borrower = await signUpBorrower(page);

      // Step 1: amount, period and the full cost.
      await page.getByText('Step 1 of 2').waitFor();
      await expect
        .poll(() => page.getByLabel('Phone number', { exact: true }).inputValue())
        .toMatch(/^09\d{9}$/);
      const amount = page.getByLabel('Loan amount');
      await amount.fill('95000');
      await amount.blur();
      expect(await amount.inputValue()).toBe('100,000');
      await page.getByText('12', { exact: true }).click();
      const summary = page.locator('section', { has: page.getByRole('heading', { name: 'Loan Summary' }) });
      await summary.getByText('₱9,455.96').waitFor();
      // Eleven payments of ₱9,455.96 and a last of ₱9,455.97: each instalment's interest is the rate on its
      // opening balance, rounded once (issue #31), so the last one carries the centavo.
      await summary.getByText('₱113,471.53').waitFor();
      await summary.getByText('₱13,471.53').waitFor();
      await summary.getByText('26.82%').waitFor();
      await screenshot(page, `application-step1-${viewport}`);

      // A second device opens step 1 now and will try to apply after the first application is in.
      const staleTab = other.page;
      await logInInBrowser(staleTab, borrower.phone, borrower.password);
      await staleTab.getByLabel('Loan amount').waitFor();

      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL('**/loan/info');
      await page.getByText('Step 2 of 2').waitFor();

      // Step 2, first half: identity with real pictures (a PDF named .jpg is refused by its bytes).
      await page.getByLabel('Full Name').fill('Maria Clara Santos');
      await page.getByLabel('ID Number').fill('N01-23-456789');
      await page.getByLabel('Front ID picture', { exact: true }).setInputFiles(pictures.notAPicture);
      await page.getByText('Pictures must be JPEG, PNG or WebP images').waitFor();
      await page.getByLabel('Front ID picture', { exact: true }).setInputFiles(pictures.idFront);
      await page.getByLabel('Back ID picture', { exact: true }).setInputFiles(pictures.idBack);
      await page.getByLabel('Selfie with ID picture', { exact: true }).setInputFiles(pictures.selfie);
      await page.getByRole('button', { name: 'Enlarge: Selfie with ID picture' }).waitFor();
      await expect.poll(() => markOf(page, 'identity')).toBe('Complete');
      await open(page, 'basic');
      await page.getByLabel('Company/Business Name').fill('Santos Bakery');
      await page.getByLabel('Monthly Income').fill('30k');
      await page.getByLabel('Monthly Income').blur();
      await page.getByText('Monthly Income must be digits only').waitFor();
      await page.getByLabel('Monthly Income').fill('30000');
      await screenshot(page, `application-step2-half-${viewport}`);

      // Reload: the draft (text and pictures) is still there.
      await page.reload();
      await page.getByText('Step 2 of 2').waitFor();
      expect(await page.getByLabel('Full Name').inputValue()).toBe('Maria Clara Santos');
      expect(await page.getByLabel('ID Number').inputValue()).toBe('N01-23-456789');
      for (const name of ['Front ID picture', 'Back ID picture', 'Selfie with ID picture']) {
        await page.getByRole('button', { name: `Enlarge: ${name}` }).waitFor();
      }
      expect(
        await page
          .getByRole('button', { name: 'Enlarge: Front ID picture' })
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).toBe(true);
      await open(page, 'basic');
      expect(await page.getByLabel('Company/Business Name').inputValue()).toBe('Santos Bakery');
      expect(await page.getByLabel('Monthly Income').inputValue()).toBe('30000');
      await page.getByRole('button', { name: 'Enlarge: Back ID picture' }).click();
      await page.getByRole('dialog', { name: 'Back ID picture' }).waitFor();
      await screenshot(page, `application-step2-enlarged-${viewport}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: 'Back ID picture' }).waitFor({ state: 'hidden' });

      // Second half: the rest of the basics, the bank, then read the terms and sign.
      await page.getByLabel('Position').fill('Owner');
      await page.getByLabel('Monthly Expense').fill('12000');
      await page.getByLabel('Address', { exact: true }).fill('12 Mabini St, Quezon City');
      await page.getByLabel('Email').fill('maria@example.com');
      await page.getByLabel('Contact Name').fill('Jose Santos');
      await page.getByLabel('Contact Phone').fill('09181234567');
      await page.getByLabel('Contact Address').fill('14 Rizal Ave, Manila');
      await page.getByLabel('Relation').selectOption('sibling');
      await expect.poll(() => markOf(page, 'basic')).toBe('Complete');
      await open(page, 'bank');
      await page.getByLabel('Bank/Wallet Name').fill('GCash');
      await page.getByLabel('Account Number').fill('09171234567');
      await expect.poll(() => markOf(page, 'bank')).toBe('Complete');

      expect(await page.getByRole('button', { name: 'Submit Loan' }).isDisabled()).toBe(true);
      await open(page, 'signature');
      const statement = section(page, 'signature');
      await statement.getByText('Disclosure statement').waitFor();
      await statement.getByText('₱113,471.53').waitFor();
      await statement.getByText('Payment schedule').waitFor();
      await statement.getByText(/By signing below you agree to borrow ₱100,000\.00/).waitFor();
      await drawSignature(page);
      await expect.poll(() => markOf(page, 'signature')).toBe('Complete');
      await screenshot(page, `application-step2-signed-${viewport}`);

      await page.getByRole('button', { name: 'Submit Loan' }).click();
      const success = page.getByRole('dialog', { name: 'Application submitted' });
      await success.waitFor({ timeout: 30_000 });
      await screenshot(page, `application-submitted-${viewport}`, { fullPage: false });
      await success.getByRole('button', { name: 'Close' }).click();
      await page.waitForURL('**/wallet');

      // The draft is gone with the submission.
      const drafts = await page.evaluate(() =>
        Object.keys(localStorage).filter((key) => key.startsWith('hiram.application-draft.')),
      );
      expect(drafts).toEqual([]);

      // Step 1 now shows the open application instead of a second form...
      await page.goto('/loan/application');
      await page.getByRole('heading', { name: 'Your application' }).waitFor();
      await page.getByText('You already have an active loan. You cannot apply again.').waitFor();
      expect(await page.getByRole('button', { name: 'Apply' }).count()).toBe(0);
      await screenshot(page, `application-open-${viewport}`);

      // ...and the device that opened step 1 before the submission is refused with the same notice,
      // over the open application that the check has just loaded.
      await staleTab.getByRole('button', { name: 'Apply' }).click();
      const refused = staleTab.getByRole('dialog', { name: 'You already have a loan' });
      await refused.getByText('You already have an active loan. You cannot apply again.').waitFor();
      await staleTab.getByRole('heading', { name: 'Your application' }).waitFor();
      expect(new URL(staleTab.url()).pathname).toBe('/loan/application');
      await screenshot(staleTab, `application-refused-${viewport}`, { fullPage: false });
    } finally {
      await context.close();
      await other.context.close();
    }
  });
});
