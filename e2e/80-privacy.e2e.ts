import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from '../src/server/test-support/unzip';
import { ApiSession } from './support/api';
import { borrowerWithApplication, currentNoticeVersion, logInInBrowser } from './support/borrower';
import { latestCode, launchBrowser, newPage, screenshot, uniquePhone, viewports } from './support/browser';
import { runningServer } from './support/server';
import { staffMember } from './support/staff';

/**
 * Borrower rights in the browser (issue #14): the privacy notice and consent at sign-up, the borrower's own
 * documents and the download of everything held about them, a new notice asked for again at the next visit,
 * and closing the account.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** My Account → Account closure → "Close my account", once the section has finished opening. */
async function openCloseDialog(page: Page) {
  await page.goto('/account');
  await page.getByTestId('credit-rating').waitFor();
  await page.getByRole('button', { name: 'Account closure' }).click();
  await page.getByText(/we keep your records for \d+ years/).waitFor();
  const dialog = page.getByRole('dialog', { name: 'Close your account?' });
  await expect
    .poll(async () => {
      if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Close my account' }).click();
      return dialog.isVisible();
    })
    .toBe(true);
  return dialog;
}

const agreeBox = (page: Page) => page.getByRole('checkbox', { name: /I have read the privacy notice/ });

describe('privacy in the browser', () => {
  it('sign-up shows the privacy notice and records the consent only when the box is ticked', async () => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const { context, page } = await newPage(browser, viewport);
      try {
        await page.goto('/signup');
        await page.getByRole('heading', { name: 'Privacy notice' }).waitFor();
        await page.getByRole('heading', { name: 'Data protection officer' }).waitFor();
        await screenshot(page, `privacy-signup-${viewports[viewport].width}`);
      } finally {
        await context.close();
      }
    }
    const { context, page } = await newPage(browser, 'phone');
    try {
      const phone = uniquePhone();
      const password = 'privacy pass 42';
      await page.goto('/signup');
      await page.getByLabel('Phone number', { exact: true }).fill(phone);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password').fill(password);
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect.poll(() => page.getByRole('button', { name: /Resend in \d+s/ }).count()).toBe(1);
      await page.getByLabel('Verification code').fill(await latestCode(phone));
      // Without the tick nothing is sent.
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page
        .getByRole('alert')
        .getByText('Please read the privacy notice and tick the box to agree before continuing.')
        .waitFor();
      await agreeBox(page).check();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.getByText('Registration successful! You are signed in.').waitFor();

      const api = new ApiSession();
      await api.login(phone, password);
      const consents = await api.request<{ items: { version: string; context: string; current: boolean }[] }>(
        'GET',
        '/api/account/consents',
      );
      expect(consents.body.items).toEqual([
        expect.objectContaining({ version: await currentNoticeVersion(), context: 'signup', current: true }),
      ]);
    } finally {
      await context.close();
    }
  });

  it('the account page shows the own documents and downloads everything as a ZIP', async () => {
    const borrower = await borrowerWithApplication({ fullName: 'Liza Privacy' });
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await newPage(browser, viewport);
      try {
        await logInInBrowser(page, borrower.phone, borrower.password);
        await page.goto('/account');
        await page.getByTestId('credit-rating').waitFor();
        for (const section of [
          'My documents',
          'Download my data',
          'Privacy and consent',
          'Account closure',
        ]) {
          await page.getByRole('button', { name: section }).click();
        }
        await page.getByText(`Application ${borrower.application.loanNumber}`).waitFor();
        const front = page.getByRole('img', { name: 'ID (front)' });
        await expect
          .poll(() => front.evaluate((img: HTMLImageElement) => img.naturalWidth))
          .toBeGreaterThan(0);
        await page.getByText('Agreed when signing up', { exact: false }).waitFor();
        await screenshot(page, `privacy-account-${viewports[viewport].width}`);
        if (viewport === 'phone') {
          await page.getByRole('button', { name: /ID \(front\)/ }).click();
          await page.getByRole('dialog').getByRole('img', { name: 'ID (front)' }).waitFor();
          await screenshot(page, 'privacy-document-enlarged-390', { fullPage: false });
          await page.keyboard.press('Escape');
          continue;
        }

        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('link', { name: 'Download my data (ZIP)' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('my-data.zip');
        const files = await unzip(readFileSync((await download.path())!));
        expect([...files.keys()]).toEqual(
          expect.arrayContaining(['profile.json', 'applications.json', 'consents.json', 'documents.json']),
        );
        const profile = JSON.parse(files.get('profile.json')!.toString('utf8'));
        expect(profile.user.phone).toBe(borrower.phone);
        const applications = JSON.parse(files.get('applications.json')!.toString('utf8'));
        expect(applications.map((a: { full_name: string }) => a.full_name)).toEqual(['Liza Privacy']);
        const pictures = [...files.keys()].filter((name) => name.startsWith('documents/'));
        expect(pictures).toHaveLength(4);
        // Each picture in the ZIP is the very file the account page shows.
        const shown = await page.evaluate(
          (src) =>
            fetch(src)
              .then((r) => r.arrayBuffer())
              .then((b) => b.byteLength),
          (await front.getAttribute('src'))!,
        );
        const frontFile = pictures.find((name) => name.endsWith('-id_front.jpg'))!;
        expect(files.get(frontFile)!.length).toBe(shown);
      } finally {
        await context.close();
      }
    }
  });

  it('closing the account is refused while an application waits, and honoured when nothing is open', async () => {
    const waiting = await borrowerWithApplication();
    const free = await borrowerWithApplication();
    const admin = await staffMember('admin');
    // The second borrower's application is rejected: nothing is open or owed.
    const rejected = await admin.api.request(
      'POST',
      `/api/staff/applications/${free.application.id}/reject`,
      {
        reason: 'Incomplete documents',
      },
    );
    expect(rejected.status).toBe(200);

    const { context, page } = await newPage(browser, 'desktop');
    try {
      await logInInBrowser(page, waiting.phone, waiting.password);
      const dialog = await openCloseDialog(page);
      await dialog.getByLabel('Password', { exact: true }).fill(waiting.password);
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await dialog.getByText(/cannot be closed while application .* is waiting for a decision/).waitFor();
      await screenshot(page, 'privacy-close-refused-1280', { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Log out' }).first().click();
      await page.waitForURL('**/login');

      await logInInBrowser(page, free.phone, free.password);
      await openCloseDialog(page);
      await dialog.getByLabel('Password', { exact: true }).fill(free.password);
      await dialog.getByRole('button', { name: 'Close account' }).click();
      await page.waitForURL('**/login');
      await page.getByText(/Your account is closed\./).waitFor();
      const login = await new ApiSession().request('POST', '/api/auth/login', {
        identifier: free.phone,
        password: free.password,
      });
      expect(login.status).toBe(403);

      // Staff see the request.
      await logInInBrowser(page, admin.username, admin.password);
      await page.goto('/admin/account-closures');
      await page.getByRole('cell', { name: free.phone }).waitFor();
      await screenshot(page, 'privacy-staff-closures-1280');
    } finally {
      await context.close();
    }
  });

  it('a new notice is asked for at the next visit before anything else', async () => {
    const borrower = await borrowerWithApplication();
    await runningServer().restart({ PRIVACY_NOTICE_VERSION: '2027-01-01' });
    for (const viewport of ['phone', 'desktop'] as const) {
      const { context, page } = await newPage(browser, viewport);
      try {
        await logInInBrowser(page, borrower.phone, borrower.password);
        await page.getByRole('heading', { name: 'Our privacy notice has changed' }).waitFor();
        await page.getByText('Version 2027-01-01').waitFor();
        await screenshot(page, `privacy-reconsent-${viewports[viewport].width}`);
        if (viewport === 'phone') continue;
        await page.getByRole('button', { name: 'Agree and continue' }).click();
        await page
          .getByRole('alert')
          .getByText(/tick the box to agree/)
          .waitFor();
        await agreeBox(page).check();
        await page.getByRole('button', { name: 'Agree and continue' }).click();
        await page.getByText('Loan Application').first().waitFor();
        await page.goto('/account');
        await page.getByRole('button', { name: 'Privacy and consent' }).click();
        await page.getByText('Agreed to a new version', { exact: false }).waitFor();
      } finally {
        await context.close();
      }
    }
  });
});
