import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logInInBrowser } from './support/borrower';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { runningServer } from './support/server';
import { loadedCard } from './support/staff';
import { enrolTotpInBrowser, totpCode } from './support/totp';

/**
 * Staff sign-in with the secure default (issue #15, docs/decisions/017): the first-start admin must set up
 * an authenticator app before anything else, then signs in with the password and a code from the app.
 */
let browser: Browser;
const NEW_PASSWORD = 'an admin pass phrase 1';
let secret = '';
let recoveryCodes: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  // The e2e servers start with STAFF_2FA_REQUIRED_ROLES=none; this file tests the default.
  await runningServer().restart({ STAFF_2FA_REQUIRED_ROLES: 'admin,finance' });
}, 300_000);
afterAll(async () => {
  await browser?.close();
});

async function openSecurityPage(page: Page) {
  // The avatar menu in the sidebar (behind the burger on phones) links to the Security page.
  const burger = page.getByRole('button', { name: 'Open navigation' });
  if (await burger.isVisible()) await burger.click();
  await page.getByRole('button', { name: 'Choose your picture' }).click();
  await page.getByRole('link', { name: 'Security and sign-in' }).click();
  await page.waitForURL('**/admin/security');
  await page.getByRole('heading', { name: 'Authenticator app' }).waitFor();
}

async function secondFactorStep(page: Page, username: string) {
  await logInInBrowser(page, username, NEW_PASSWORD);
  await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
}

describe('staff two-step sign-in', () => {
  it('the first admin enrols at first sign-in, signs out, and signs in with password and code', async () => {
    const { username, password: oneTime } = runningServer().admin;
    const { context, page } = await newPage(browser, 'desktop');
    try {
      await logInInBrowser(page, username, oneTime);
      await page.getByLabel('Current password').fill(oneTime);
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();

      // Nothing else opens until the authenticator app is set up.
      await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
      await screenshot(page, 'staff-2fa-required-1280');
      await page.goto('/admin/users');
      await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
      const refused = await page.evaluate(async () => (await fetch('/api/admin/users')).json());
      expect(refused.error.code).toBe('SECOND_FACTOR_ENROLMENT_REQUIRED');

      ({ secret, recoveryCodes } = await enrolTotpInBrowser(page, {
        onQrCode: () => screenshot(page, 'staff-2fa-qr-code-1280'),
        onRecoveryCodes: () => screenshot(page, 'staff-2fa-recovery-codes-1280'),
      }));
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(recoveryCodes).toHaveLength(10);
      // Enrolled: the page asked for opens.
      await page.getByRole('heading', { name: 'User Management' }).waitFor();

      await openSecurityPage(page);
      await expect.poll(() => page.getByText('Recovery codes left: 10').isVisible()).toBe(true);
      await screenshot(page, 'staff-2fa-security-1280');

      await page.getByRole('button', { name: 'Log out' }).first().click();
      await page.waitForURL((url) => url.pathname === '/login');

      await secondFactorStep(page, username);
      await screenshot(page, 'staff-2fa-challenge-1280');
      // The password alone opens nothing.
      const pending = await page.evaluate(async () => (await fetch('/api/staff/dashboard')).json());
      expect(pending.error.code).toBe('SECOND_FACTOR_REQUIRED');
      // The enrolment spent this step's code: the app's next one (accepted within one step) signs in.
      await page.getByLabel('Code').fill(totpCode(secret, 1));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL('**/admin/home');
      await loadedCard(page, 'totalLoans').waitFor();
    } finally {
      await context.close();
    }
  });

  it('at 390 px: a wrong code is refused, a recovery code works, and "sign out everywhere" ends all', async () => {
    const { username } = runningServer().admin;
    const desktop = await newPage(browser, 'desktop');
    const phone = await newPage(browser, 'phone');
    try {
      // Signed in on the desktop with a recovery code…
      await secondFactorStep(desktop.page, username);
      await desktop.page.getByLabel('Code').fill(recoveryCodes[0]!);
      await desktop.page.getByRole('button', { name: 'Verify' }).click();
      await loadedCard(desktop.page, 'totalLoans').waitFor();

      // …and on the phone with another one, after a wrong code.
      const { page } = phone;
      await secondFactorStep(page, username);
      await screenshot(page, 'staff-2fa-challenge-390');
      await page.getByLabel('Code').fill('000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('That code is not valid or was already used.').waitFor();
      await page.getByLabel('Code').fill(recoveryCodes[1]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await loadedCard(page, 'totalLoans').waitFor();

      await openSecurityPage(page);
      await expect.poll(() => page.getByText('Recovery codes left: 8').isVisible()).toBe(true);
      await screenshot(page, 'staff-2fa-security-390');
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.waitForURL((url) => url.pathname === '/login');

      await desktop.page.reload();
      await desktop.page.waitForURL((url) => url.pathname === '/login');
    } finally {
      await desktop.context.close();
      await phone.context.close();
    }
  });
});
