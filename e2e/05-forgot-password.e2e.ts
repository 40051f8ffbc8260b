import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logInInBrowser, signUpBorrower } from './support/borrower';
import { baseUrl, launchBrowser, newPage, screenshot, uniquePhone } from './support/browser';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The newest password-reset code the development outbox "sent" to `phone` (not the sign-up code). */
async function latestResetCode(phone: string): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const response = await fetch(`${baseUrl()}/api/dev/outbox?phone=${phone}`);
    const body = (await response.json()) as { messages: { text: string; purpose: string }[] };
    const newest = body.messages[0];
    const code = newest?.purpose === 'password_reset' ? /\b(\d{6})\b/.exec(newest.text)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No password reset code was sent to ${phone}`);
}

describe('forgotten password in the browser', () => {
  it('a borrower resets the password with a code by SMS, is signed out everywhere, and logs in with the new one', async () => {
    const borrower = await signUpBorrower();
    const { context, page } = await newPage(browser, 'phone');
    try {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/forgot-password');
      await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
      await screenshot(page, 'forgot-password-phone');

      await page.getByLabel('Phone number', { exact: true }).fill(borrower.phone);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page
        .getByText(`If ${borrower.phone} belongs to an account, a code is on its way to it.`)
        .waitFor();
      await expect.poll(() => page.getByRole('button', { name: /Resend in \d+s/ }).count()).toBe(1);
      const code = await latestResetCode(borrower.phone);
      await page.getByLabel('Verification code').fill(code);

      // An easy password is refused by the server, under the field; the code is not spent.
      await page.getByLabel('New password', { exact: true }).fill('password123');
      await page.getByLabel('Confirm new password').fill('password123');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await page.getByText('This password is too easy to guess. Add more words or characters.').waitFor();
      await screenshot(page, 'forgot-password-weak-phone');

      const newPassword = 'mango season 2026';
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password').fill(newPassword);
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await page
        .getByText('Your password has been reset and you were signed out everywhere. Redirecting to login...')
        .waitFor();
      await page.waitForURL('**/login', { timeout: 5_000 });

      // The session the borrower had elsewhere has ended; the old password no longer works.
      const me = await borrower.api.request<{ user: unknown }>('GET', '/api/me');
      expect(me.body.user).toBeNull();
      await page.getByLabel('Phone number or username').fill(borrower.phone);
      await page.getByLabel('Password', { exact: true }).fill(borrower.password);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByText('Incorrect phone, username or password').waitFor();

      await logInInBrowser(page, borrower.phone, newPassword);
      await page.waitForURL('**/loan/application');
      await page.getByText('Loan Application').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('an unknown phone gets the same answer, and the page looks right on a desktop', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    try {
      await page.goto('/forgot-password');
      await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
      await screenshot(page, 'forgot-password-desktop');
      const unknown = uniquePhone();
      await page.getByLabel('Phone number', { exact: true }).fill(unknown);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText(`If ${unknown} belongs to an account, a code is on its way to it.`).waitFor();
      const outbox = await fetch(`${baseUrl()}/api/dev/outbox?phone=${unknown}`).then((r) => r.json());
      expect(outbox.messages).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
