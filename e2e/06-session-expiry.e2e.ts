import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations, wcag22Tags } from './helpers-axe';
import { ApiSession, expectStatus } from './support/api';
import { signUpBorrower, submitApplication } from './support/borrower';
import { baseUrl, latestCode, launchBrowser, screenshot, uniquePhone, viewports } from './support/browser';
import { staffMember } from './support/staff';
import { appStrings } from './support/strings';

/**
 * Issue #32 in the browser. A borrower writes a complaint; meanwhile their session ends on the server (the
 * session row is deleted, as an expiry or a sign-out elsewhere does); sending the complaint lands on sign-in
 * with "Your session ended; sign in to continue", signing in (the phone written "+63 9xx …") goes back to the
 * complaint with the text kept, and it files. And a new borrower who signs up with "+63 917 123 4567" lands
 * signed in on the application, with no second sign-in. An officer whose session ends while writing a
 * rejection reason comes back to the list and finds the reason kept. Phone (390 px) and desktop, all four
 * languages, axe-core clean, nothing scrolling sideways.
 */

type Lang = 'en' | 'fil' | 'zh' | 'km';
const strings = appStrings;

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.x A/AA and best practice). */
async function axeFindings(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle').catch(() => {});
  return (await seriousAxeViolations(page, wcag22Tags)).map(
    (v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target).join(', ')}`,
  );
}

/** The page is no wider than the window: nothing scrolls sideways. */
async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** Looked at: a screenshot for a person, axe clean, nothing sideways. */
async function check(page: Page, name: string) {
  await screenshot(page, name, { fullPage: false });
  expect(await axeFindings(page), name).toEqual([]);
  expect(await scrollsSideways(page), `${name} scrolls sideways`).toBe(false);
}

/** "09171234567" as people write it: "+63 917 123 4567". */
const international = (phone: string) => `+63 ${phone.slice(1, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`;

/**
 * Ends the browser's session on the server: its row is deleted (POST /api/auth/logout with the browser's own
 * cookie, from outside the browser), while the browser keeps the cookie and the page stays as it was.
 */
async function endSessionOnServer(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'hiram_session');
  if (!cookie) throw new Error('The browser has no session cookie');
  const headers = { cookie: `${cookie.name}=${cookie.value}` };
  const me = (await (await fetch(`${baseUrl()}/api/me`, { headers })).json()) as { csrfToken: string };
  const out = await fetch(`${baseUrl()}/api/auth/logout`, {
    method: 'POST',
    headers: { ...headers, 'x-csrf-token': me.csrfToken },
  });
  expect(out.status).toBe(200);
  const after = (await (await fetch(`${baseUrl()}/api/me`, { headers })).json()) as { user: unknown };
  expect(after.user).toBeNull();
}

/** Fills and sends the sign-in form on the page as it is, in the reader's language. */
async function logIn(page: Page, t: (key: string) => string, identifier: string, password: string) {
  await page.getByLabel(t('auth.login.identifier')).fill(identifier);
  await page.getByLabel(t('auth.login.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('auth.login.submit') }).click();
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A phone (390 × 844) and a desktop of 1440 × 900. */
const sizes = { phone: viewports.phone, desktop: { width: 1440, height: 900 } } as const;

async function newPage(viewport: keyof typeof sizes, lang: Lang) {
  const context = await browser.newContext({
    viewport: sizes[viewport],
    baseURL: baseUrl(),
    locale: 'en-US',
    // axe is injected as an inline script, which the app's Content-Security-Policy rightly refuses.
    bypassCSP: true,
  });
  await context.addInitScript((language) => {
    if (!window.localStorage.getItem('hiram.lang')) window.localStorage.setItem('hiram.lang', language);
  }, lang);
  return { context, page: await context.newPage() };
}

const complaintText: Record<Lang, string> = {
  en: 'A collector called my sister at 11 pm and told her about my loan. I never gave her number for that.',
  fil: 'Tinawagan ng kolektor ang kapatid ko nang alas-11 ng gabi at sinabi ang tungkol sa utang ko.',
  zh: '催收员晚上11点给我妹妹打电话，告诉她我的贷款情况。我从未同意过。',
  km: 'អ្នកប្រមូលប្រាក់បានទូរស័ព្ទទៅប្អូនស្រីខ្ញុំនៅម៉ោង ១១ យប់ ហើយប្រាប់នាងអំពីប្រាក់កម្ចីរបស់ខ្ញុំ។',
};

describe('a session that ends while a complaint is being written', () => {
  it.each([
    ['desktop', 'en'],
    ['phone', 'fil'],
    ['desktop', 'zh'],
    ['phone', 'km'],
  ] as const)(
    '%s, %s: told, signed in again, back at the complaint with the text kept, filed',
    async (viewport, lang) => {
      const t = strings(lang);
      const { context, page } = await newPage(viewport, lang);
      const borrower = await signUpBorrower();
      const tag = `${viewport}-${lang}`;
      try {
        await page.goto('/login');
        await logIn(page, t, borrower.phone, borrower.password);
        await page.waitForURL((url) => url.pathname.startsWith('/loan'));
        await page.goto('/account#complaints');
        const form = page.getByRole('form', { name: t('complaints.borrower.title') });
        await form.waitFor();
        await form.getByRole('textbox', { name: t('complaints.borrower.category') }).click();
        await page.getByRole('option', { name: t('complaints.categories.collection_practices') }).click();
        await form.getByRole('textbox', { name: t('complaints.borrower.text') }).fill(complaintText[lang]);

        // The session ends on the server while the borrower is typing (an expiry, a sign-out elsewhere).
        await endSessionOnServer(page);
        await form.getByRole('button', { name: t('complaints.borrower.submit') }).click();

        // Sign-in says why, and knows where to go back to.
        await page.waitForURL((url) => url.pathname === '/login');
        const url = new URL(page.url());
        expect(url.searchParams.get('next')).toBe('/account#complaints');
        expect(url.searchParams.get('ended')).toBe('1');
        await page
          .getByRole('status')
          .filter({ hasText: t('session.ended') })
          .waitFor();
        await check(page, `session-ended-login-${tag}`);

        // Signing in (the phone written the international way) goes back to the complaint, text kept.
        await logIn(page, t, international(borrower.phone), borrower.password);
        await page.waitForURL((u) => u.pathname === '/account');
        expect(new URL(page.url()).hash).toBe('#complaints');
        const again = page.getByRole('form', { name: t('complaints.borrower.title') });
        await again.getByText(t('session.draftKept')).waitFor();
        expect(await again.getByRole('textbox', { name: t('complaints.borrower.text') }).inputValue()).toBe(
          complaintText[lang],
        );
        expect(
          await again.getByRole('textbox', { name: t('complaints.borrower.category') }).inputValue(),
        ).toBe(t('complaints.categories.collection_practices'));
        await again.scrollIntoViewIfNeeded();
        await check(page, `session-ended-restored-${tag}`);

        // It files, and nothing is kept any more.
        await again.getByRole('button', { name: t('complaints.borrower.submit') }).click();
        await page.getByRole('article').filter({ hasText: complaintText[lang] }).waitFor();
        await expect
          .poll(() =>
            page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('hiram.draft.'))),
          )
          .toEqual([]);
        const mine = await borrower.api.request<{ complaints: { text: string }[] }>('GET', '/api/complaints');
        expect(mine.body.complaints.map((c) => c.text)).toEqual([complaintText[lang]]);
      } finally {
        await context.close();
      }
    },
  );
});

describe('sign-up with the phone written "+63 9xx xxx xxxx"', () => {
  it.each([
    ['phone', 'en'],
    ['desktop', 'km'],
  ] as const)('%s, %s: lands signed in on the application, no second sign-in', async (viewport, lang) => {
    const t = strings(lang);
    const { context, page } = await newPage(viewport, lang);
    const phone = uniquePhone();
    const logins: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/login') logins.push(request.url());
    });
    try {
      await page.goto('/signup');
      await page.getByLabel(t('auth.signup.phone')).fill(international(phone));
      await page.getByLabel(t('auth.signup.password'), { exact: true }).fill('sampaguita garden 7');
      await page.getByLabel(t('auth.signup.confirmPassword')).fill('sampaguita garden 7');
      await page.getByRole('button', { name: t('auth.signup.sendCode') }).click();
      // The code went to the number itself, in the one form the app keeps.
      const code = await latestCode(phone);
      await page.getByLabel(t('auth.signup.code')).fill(code);
      await page.getByRole('checkbox', { name: t('privacy.notice.agree') }).check();
      await check(page, `signup-international-phone-${viewport}-${lang}`);
      await page.getByRole('button', { name: t('auth.signup.submit') }).click();

      await page.waitForURL((url) => url.pathname === '/loan/application');
      await page.getByRole('heading', { name: t('borrower.title.application') }).waitFor();
      // Step 1 itself, ready to apply.
      await page.locator('main').getByRole('button').first().waitFor();
      await page.getByText(t('auth.signup.success')).waitFor();
      await check(page, `signup-signed-in-${viewport}-${lang}`);
      expect(logins).toEqual([]);
      const me = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
      expect(me.user).toMatchObject({ phone, role: 'borrower' });

      // The account signs in with the number written any way.
      const api = new ApiSession();
      expectStatus(
        await api.request('POST', '/api/auth/login', {
          identifier: `(${phone.slice(0, 4)}) ${phone.slice(4, 7)}-${phone.slice(7)}`,
          password: 'sampaguita garden 7',
        }),
        200,
        'log in with the phone written another way',
      );
    } finally {
      await context.close();
    }
  });
});

describe('an officer whose session ends while writing a rejection reason', () => {
  it.each(['desktop', 'phone'] as const)(
    '%s: back on the same list, the reason kept, the rejection done',
    async (viewport) => {
      const officer = await staffMember('officer');
      const borrower = await signUpBorrower();
      const name = `Rosa Session ${viewport}`;
      const application = await submitApplication(borrower, {
        fullName: name,
        amount: 50_000,
        termMonths: 6,
      });
      const { context, page } = await newPage(viewport, 'en');
      const reason =
        'The payslips do not match the income on the application; we could not verify the employer.';
      try {
        await page.goto('/login');
        await logIn(page, strings('en'), officer.username, officer.password);
        await page.waitForURL((url) => url.pathname === '/admin/home');
        await page.goto(`/admin/pending?name=${encodeURIComponent(name)}`);
        const row = page.locator('tbody tr', { hasText: name });
        await row.getByRole('button', { name: /^Actions for / }).click();
        await page.getByRole('menuitem', { name: 'Reject' }).click();
        const reject = page.getByRole('dialog', { name: 'Reject Loan' });
        await reject.getByLabel(/Reason for rejection/).fill(reason);

        await endSessionOnServer(page);
        await reject.getByRole('button', { name: 'Reject' }).click();
        await reject.getByRole('button', { name: 'Reject' }).click();
        await page.waitForURL((url) => url.pathname === '/login');
        expect(new URL(page.url()).searchParams.get('next')).toBe(
          `/admin/pending?name=${encodeURIComponent(name)}`,
        );
        await page
          .getByRole('status')
          .filter({ hasText: 'Your session ended; sign in to continue' })
          .waitFor();

        await logIn(page, strings('en'), officer.username, officer.password);
        await page.waitForURL((url) => url.pathname === '/admin/pending');
        expect(new URL(page.url()).searchParams.get('name')).toBe(name);
        await row.getByRole('button', { name: /^Actions for / }).click();
        await page.getByRole('menuitem', { name: 'Reject' }).click();
        await reject.getByText('We kept what you typed.').waitFor();
        expect(await reject.getByLabel(/Reason for rejection/).inputValue()).toBe(reason);
        await check(page, `session-ended-staff-reason-${viewport}`);

        await reject.getByRole('button', { name: 'Reject' }).click();
        await reject.getByRole('button', { name: 'Reject' }).click();
        await page.getByText(`Loan ${application.loanNumber} rejected.`).waitFor();
        const mine = await borrower.api.request<{ application: { status: string; rejectReason: string } }>(
          'GET',
          '/api/applications/mine',
        );
        expect(mine.body.application).toMatchObject({ status: 'rejected', rejectReason: reason });
      } finally {
        await context.close();
      }
    },
  );
});

describe('a back office left untouched (docs/decisions/073)', () => {
  it('re-reads its list on a pushed change as an unattended request; the next click is the reader’s again', async () => {
    const officer = await staffMember('officer');
    const { context, page } = await newPage('desktop', 'en');
    try {
      // The page's clock, so a minute without input passes at once (the server's clock is untouched).
      await page.clock.install();
      await page.goto('/login');
      await logIn(page, strings('en'), officer.username, officer.password);
      await page.waitForURL((url) => url.pathname === '/admin/home');
      await page.goto('/admin/pending');
      const list = (request: { url(): string }) =>
        new URL(request.url()).pathname === '/api/staff/applications/pending';
      const opened = await page.waitForRequest(list);
      expect(opened.headers()['x-hiram-unattended']).toBeUndefined();
      await page.getByRole('heading', { name: 'Pending Loan List' }).waitFor();

      await page.clock.fastForward(61_000);
      // A borrower applies meanwhile: the live count rises and the open list is read again, by the app alone.
      const reread = page.waitForRequest(list);
      await submitApplication(await signUpBorrower(), { fullName: 'Unattended Reread', amount: 50_000 });
      expect((await reread).headers()['x-hiram-unattended']).toBe('1');
      await page.locator('tbody tr', { hasText: 'Unattended Reread' }).waitFor();

      const clicked = page.waitForRequest(list);
      await page
        .getByRole('button', { name: /refresh/i })
        .first()
        .click();
      expect((await clicked).headers()['x-hiram-unattended']).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
