import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { borrowerWithApplication, logInInBrowser } from './support/borrower';
import { baseUrl, launchBrowser, newPage, screenshot, viewports } from './support/browser';
import { staffMember } from './support/staff';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** CLDR's Khmer month names: what a Khmer reader must see, whatever Intl data the browser has. */
const khmerMonths = 'មករា_កុម្ភៈ_មីនា_មេសា_ឧសភា_មិថុនា_កក្កដា_សីហា_កញ្ញា_តុលា_វិច្ឆិកា_ធ្នូ'.split('_');

/** The day, month and time of an instant in the lender's zone (the SPEC default, Asia/Manila). */
function inManila(iso: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Manila',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  const hour = Number(parts.hour) % 24;
  return {
    date: `${Number(parts.day)} ${khmerMonths[Number(parts.month) - 1]} ${parts.year}`,
    time: `${String(hour).padStart(2, '0')}:${parts.minute}`,
    filipinoDate: `${filipinoMonths[Number(parts.month) - 1]} ${Number(parts.day)}, ${parts.year}`,
    filipinoTime: `${hour % 12 || 12}:${parts.minute} ${hour < 12 ? 'AM' : 'PM'}`,
  };
}

/** CLDR's Filipino short month names ("Nob 23, 2026"). */
const filipinoMonths = 'Ene_Peb_Mar_Abr_May_Hun_Hul_Ago_Set_Okt_Nob_Dis'.split('_');

describe('dates in Khmer', () => {
  // Debian's Chromium has no Khmer date data: Intl alone would print "2026 M11 23 08:28 AM".
  it('the pending list shows Khmer month names and the 24-hour time', async () => {
    const officer = await staffMember('officer');
    const unique = Date.now().toString(36);
    const { application } = await borrowerWithApplication({ fullName: `Dara Sok ${unique}` });
    const { context, page } = await newPage(browser);
    try {
      await logInInBrowser(page, officer.username, officer.password);
      await page.evaluate(() => window.localStorage.setItem('hiram.lang', 'km'));
      await page.goto(`/admin/pending?name=${encodeURIComponent(unique)}`);
      const row = page.locator('tbody tr', { hasText: application.loanNumber });
      await row.waitFor();
      const expected = inManila(application.submittedAt);
      await row.getByText(expected.date, { exact: true }).waitFor();
      await row.getByText(expected.time, { exact: true }).waitFor();
      expect(await row.textContent()).not.toMatch(/M\d{1,2}|AM|PM/);
      await screenshot(page, 'dates-pending-km');
    } finally {
      await context.close();
    }
  });
});

describe('Filipino', () => {
  it('the pending list shows Filipino month names and the 12-hour time', async () => {
    const officer = await staffMember('officer');
    const unique = Date.now().toString(36);
    const { application } = await borrowerWithApplication({ fullName: `Maria Santos ${unique}` });
    const { context, page } = await newPage(browser);
    try {
      await logInInBrowser(page, officer.username, officer.password);
      await page.evaluate(() => window.localStorage.setItem('hiram.lang', 'fil'));
      await page.goto(`/admin/pending?name=${encodeURIComponent(unique)}`);
      await page.getByRole('heading', { name: 'Listahan ng Nakabinbing Pautang' }).waitFor();
      const row = page.locator('tbody tr', { hasText: application.loanNumber });
      await row.waitFor();
      const expected = inManila(application.submittedAt);
      await row.getByText(expected.filipinoDate, { exact: true }).waitFor();
      await row.getByText(expected.filipinoTime, { exact: true }).waitFor();
      expect(await row.textContent()).not.toMatch(/M\d{1,2}/);
      await screenshot(page, 'dates-pending-fil');
    } finally {
      await context.close();
    }
  });

  it('is chosen from the browser on a first visit; a stored choice wins', async () => {
    const context = await browser.newContext({
      viewport: viewports.phone,
      baseURL: baseUrl(),
      locale: 'fil-PH',
    });
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Maligayang pagdating' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fil');
      expect(await page.evaluate(() => window.localStorage.getItem('hiram.lang'))).toBeNull();
      await screenshot(page, 'login-fil-phone');
      await page.evaluate(() => window.localStorage.setItem('hiram.lang', 'en'));
      await page.reload();
      await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
