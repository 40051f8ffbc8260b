import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from './support/api';
import {
  borrowerWithApplication,
  borrowerWithApprovedLoan,
  currentNoticeVersion,
  logInInBrowser,
} from './support/borrower';
import { baseUrl, latestCode, launchBrowser, screenshot } from './support/browser';
import { type StaffMember, staffMember } from './support/staff';
import { rawNamesShown, stringKeysShown } from './support/stored-names';

/**
 * The stored-name scan in every language (issue #36): each screen, read as a person reads it in English,
 * Filipino, Chinese and Khmer, shows no name or value from the code (a status, a kind, an error code, a date
 * as the API sends it) and no string's key where its words are missing.
 */
let browser: Browser;
let officer: StaffMember;
let borrower: Awaited<ReturnType<typeof borrowerWithApprovedLoan>>;
/** The privacy notice's version is the name the lender gave it (PRIVACY_NOTICE_VERSION, e.g. "2026-11-23"). */
let noticeVersion: string;

beforeAll(async () => {
  browser = await launchBrowser();
  noticeVersion = await currentNoticeVersion();
  const admin = await staffMember('admin');
  officer = await staffMember('officer');
  borrower = await borrowerWithApprovedLoan(admin.api, { fullName: 'Lorna Dizon', creditScore: 620 });
  // A withdrawal waiting for finance, a complaint with a reply: the wallet and account show them.
  const shown = await borrower.api.request<{ planDigest: string }>('POST', '/api/wallet/withdrawal-preview', {
    amount: 5000,
  });
  expectStatus(shown, 200, 'withdrawal preview');
  expectStatus(
    await borrower.api.request('POST', '/api/wallet/withdrawal-code', {
      amount: 5000,
      planDigest: shown.body.planDigest,
    }),
    200,
    'withdrawal code',
  );
  expectStatus(
    await borrower.api.request('POST', '/api/wallet/withdrawals', {
      amount: 5000,
      code: await latestCode(borrower.phone),
      idempotencyKey: randomUUID(),
    }),
    201,
    'withdraw',
  );
  const complaint = new FormData();
  complaint.set('category', 'payments');
  complaint.set('text', 'My payment is not shown yet.');
  const filed = await borrower.api.request<{ id: string }>('POST', '/api/complaints', complaint);
  expectStatus(filed, 201, 'file complaint');
  expectStatus(
    await admin.api.request('POST', `/api/staff/complaints/${filed.body.id}/replies`, {
      message: 'Thank you, we are checking it.',
    }),
    200,
    'reply to complaint',
  );
  // Waiting in the Pending list.
  await borrowerWithApplication({ fullName: 'Ramon Cruz', amount: 60_000 });
});
afterAll(async () => {
  await browser?.close();
});

const languages = ['en', 'fil', 'zh', 'km'] as const;

/** A page in `language`: the reader's choice as the language switch keeps it. */
async function pageIn(language: (typeof languages)[number]) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
  });
  await context.addInitScript((lang) => window.localStorage.setItem('hiram.lang', lang), language);
  return { context, page: await context.newPage() };
}

/** The screen once drawn in `language`, scanned as a person reads it (rendered text only). */
async function scan(page: Page, language: string, path: string): Promise<string[]> {
  await page.goto(path);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.locator('main, [role="main"], form').first().waitFor();
  // Lists and cards fill in after their answers: wait until nothing says it is loading.
  await page
    .waitForFunction(
      () => document.querySelectorAll('[aria-busy="true"], .mantine-Loader-root').length === 0,
      undefined,
      {
        timeout: 10_000,
      },
    )
    .catch(() => {});
  await screenshot(page, `languages-${language}${path.replace(/\/[0-9a-f-]{36}$/, '').replaceAll('/', '-')}`);
  // biome-ignore lint/performance/useDomNodeTextContent: only the rendered text is what a person reads
  const text = (await page.evaluate(() => document.body.innerText)).replaceAll(noticeVersion, '');
  return [...rawNamesShown(text), ...stringKeysShown(text)].map((name) => `${language} ${path}: "${name}"`);
}

describe.each(languages)('no stored name or string key shown in %s', (language) => {
  it('signed out: log in, sign up, forgotten password', async () => {
    const { context, page } = await pageIn(language);
    try {
      const found: string[] = [];
      for (const path of ['/login', '/signup', '/forgot-password'])
        found.push(...(await scan(page, language, path)));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("the borrower's wallet and account", async () => {
    const { context, page } = await pageIn('en');
    try {
      // Signed in by the English labels, then read in the language chosen.
      await logInInBrowser(page, borrower.phone, borrower.password);
      await page.evaluate((lang) => window.localStorage.setItem('hiram.lang', lang), language);
      await context.addInitScript((lang) => window.localStorage.setItem('hiram.lang', lang), language);
      const found: string[] = [];
      for (const path of ['/wallet', '/account']) found.push(...(await scan(page, language, path)));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the back office as an officer', async () => {
    const { context, page } = await pageIn('en');
    try {
      await logInInBrowser(page, officer.username, officer.password);
      await context.addInitScript((lang) => window.localStorage.setItem('hiram.lang', lang), language);
      const found: string[] = [];
      for (const path of [
        '/admin/home',
        '/admin/pending',
        '/admin/approved',
        '/admin/servicing',
        `/admin/loans/${borrower.applicationId}`,
        '/admin/complaints',
        '/admin/account-closures',
      ]) {
        found.push(...(await scan(page, language, path)));
      }
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
