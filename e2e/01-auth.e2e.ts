import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdRequests, latestCode, launchBrowser, newPage, screenshot, uniquePhone } from './support/browser';
import { runningServer } from './support/server';
import { E2E_ADMIN_PASSWORD } from './support/staff';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('accounts in the browser', () => {
  it('a new borrower signs up, logs in, stays signed in across a reload and logs out', async () => {
    const { context, page } = await newPage(browser, 'phone');
    try {
      const phone = uniquePhone();
      const password = 'correct horse 42';
      await page.goto('/signup');
      await page.getByRole('heading', { name: 'Create Account' }).waitFor();
      await screenshot(page, 'signup-phone');

      await page.getByLabel('Phone number', { exact: true }).fill(phone);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password').fill(password);
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect.poll(() => page.getByRole('button', { name: /Resend in \d+s/ }).count()).toBe(1);
      const code = await latestCode(phone);
      await page.getByLabel('Verification code').fill(code);
      await page.getByRole('checkbox', { name: /I have read the privacy notice/ }).check();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      // Signed in by the sign-up itself (issue #32): straight on to apply, no second sign-in.
      await page.getByText('Registration successful! You are signed in.').waitFor();
      await page.waitForURL('**/loan/application', { timeout: 5_000 });
      await page.getByText('Loan Application').first().waitFor();

      // Out, and in again with the same phone and password.
      await page.getByRole('button', { name: 'Log out' }).first().click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByLabel('Phone number or username').fill(phone);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.waitForURL('**/loan/application');
      await page.getByText('Loan Application').first().waitFor();
      await screenshot(page, 'borrower-home-phone');

      await page.reload();
      await page.waitForURL('**/loan/application');
      await page.getByText('Loan Application').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/loan/application');

      // A borrower opening the back office is sent back to their own home.
      await page.goto('/admin/home');
      await page.waitForURL('**/loan/application');

      await page.getByRole('button', { name: 'Log out' }).first().click();
      await page.waitForURL((url) => url.pathname === '/login');
      const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
      expect(me.user).toBeNull();
      await page.goto('/loan');
      await page.waitForURL((url) => url.pathname === '/login');
    } finally {
      await context.close();
    }
  });

  it("index.html says Loading... in the saved language until the app's JavaScript runs, then the app replaces it", async () => {
    const { context, page } = await newPage(browser, 'phone');
    try {
      await page.addInitScript(() => localStorage.setItem('hiram.lang', 'zh'));
      const { release: releaseScripts } = await holdRequests(page, '**/assets/*.js');
      await page.goto('/login', { waitUntil: 'commit' });
      const status = page.getByRole('status');
      await status.getByText('加载中...').waitFor();
      expect(await status.getByText('Loading...').isVisible()).toBe(false);
      expect(await page.locator('html').getAttribute('lang')).toBe('zh');
      releaseScripts();
      await page.getByRole('heading', { name: '欢迎' }).waitFor();
      expect(await page.getByText('加载中...').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('the loading screen needs no stylesheet and no script file; the app waits for its stylesheet before drawing', async () => {
    const { context, page } = await newPage(browser, 'phone');
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        violations.push(message.text());
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    try {
      await page.addInitScript(() => {
        localStorage.setItem('hiram.color-scheme', 'dark');
        // Whether the app's stylesheet had been applied when the app first drew into #root.
        document.addEventListener('DOMContentLoaded', () => {
          const root = document.getElementById('root');
          if (!root) return;
          new MutationObserver((_, observer) => {
            const sheet = document.querySelector<HTMLLinkElement>('link[data-app-styles]')?.sheet;
            (window as { firstDrawStyled?: boolean }).firstDrawStyled = Boolean(sheet);
            observer.disconnect();
          }).observe(root, { childList: true, subtree: true });
        });
      });
      const { release: releaseStyles } = await holdRequests(page, '**/assets/*.css');
      const pageChunk = page.waitForResponse((response) =>
        /\/assets\/login-page-[^/]+\.js$/.test(response.url()),
      );
      await page.goto('/login', { waitUntil: 'commit' });
      // Drawn from index.html alone: the inline boot script (allowed by its hash) has applied the saved
      // scheme, and the inline style paints the page dark like Mantine's would.
      await page.getByRole('status').getByText('Loading...').waitFor();
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const drawnBefore = await background();
      expect(drawnBefore).not.toBe('rgb(255, 255, 255)');
      // The app has started (its early answers taken) and the page's chunk is in, but it draws nothing
      // unstyled: its first change to #root comes with the stylesheet applied.
      await pageChunk;
      await page.waitForFunction(() => !('__hiramEarlyAnswers' in window));
      await page.waitForTimeout(300);
      expect(await page.getByRole('heading', { name: 'Welcome' }).count()).toBe(0);
      releaseStyles();
      await page.getByRole('heading', { name: 'Welcome' }).waitFor();
      expect(await page.evaluate(() => (window as { firstDrawStyled?: boolean }).firstDrawStyled)).toBe(true);
      expect(await page.getByText('Loading...').count()).toBe(0);
      expect(await background()).toBe(drawnBefore);
      expect(violations).toEqual([]);
      // The boot script is in the page, not a file of its own.
      expect(requested.filter((path) => path.endsWith('boot.js'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a wrong password shows the SPEC message', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    try {
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Welcome' }).waitFor();
      await screenshot(page, 'login-desktop');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByText('Please enter phone or username and password').first().waitFor();
      await page.getByLabel('Phone number or username').fill('admin');
      await page.getByLabel('Password', { exact: true }).fill('definitely-wrong');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByText('Incorrect phone, username or password').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      await context.close();
    }
  });

  it('the bootstrap admin must change the one-time password, then lands on the back office', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    try {
      const oneTime = runningServer().admin.password;
      await page.goto('/login');
      await page.getByLabel('Phone number or username').fill('admin');
      await page.getByLabel('Password', { exact: true }).fill(oneTime);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByLabel('Current password').waitFor();
      await screenshot(page, 'change-password-desktop');
      await page.getByLabel('Current password').fill(oneTime);
      await page.getByLabel('New password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
      await page.getByLabel('Confirm new password').fill(E2E_ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.waitForURL('**/admin/home');
      await page.getByRole('heading', { name: 'Home Page Summary' }).waitFor();
      await screenshot(page, 'admin-home-desktop');

      // Staff opening a borrower page goes back to the back office.
      await page.goto('/wallet');
      await page.waitForURL('**/admin/home');

      // The old one-time password no longer works.
      await page.getByRole('button', { name: 'Log out' }).first().click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByLabel('Phone number or username').fill('admin');
      await page.getByLabel('Password', { exact: true }).fill(oneTime);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByText('Incorrect phone, username or password').waitFor();
    } finally {
      await context.close();
    }
  });
});
