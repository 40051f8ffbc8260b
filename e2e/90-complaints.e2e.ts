import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logInInBrowser, signUpBorrower } from './support/borrower';
import { launchBrowser, newPage, screenshot } from './support/browser';
import { type StaffMember, staffMember } from './support/staff';

/**
 * Complaints in the browser (issue #14; RA 11765 redress): a borrower files one from My Account (category,
 * text, a picture) and gets a reference; an officer finds it in the Complaints queue, replies and resolves
 * it; the borrower sees the reply, the resolution and the status.
 */
let browser: Browser;
let officer: StaffMember;
let picture: string;

beforeAll(async () => {
  browser = await launchBrowser();
  officer = await staffMember('officer');
  const dir = mkdtempSync(join(tmpdir(), 'hiram-complaint-'));
  picture = join(dir, 'late-night-call.png');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240">
    <rect width="400" height="240" fill="#eef1f4"/><text x="20" y="120" font-size="28">Call log 23:14</text></svg>`;
  writeFileSync(picture, await sharp(Buffer.from(svg)).png().toBuffer());
});
afterAll(async () => {
  await browser?.close();
});

async function openComplaints(page: Page) {
  await page.goto('/account');
  await page.getByTestId('credit-rating').waitFor();
  const control = page.getByRole('button', { name: 'Complaints' });
  if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
  await page.getByRole('form', { name: 'Complaints' }).waitFor();
}

describe('complaints', () => {
  it('a borrower files a complaint, staff reply and resolve, the borrower sees it all', async () => {
    const { context, page } = await newPage(browser, 'desktop');
    const borrower = await signUpBorrower(page);
    let reference = '';
    try {
      // The wallet says how to complain and names the regulator.
      await page.goto('/wallet');
      await page.getByRole('heading', { name: 'Questions or complaints?' }).waitFor();
      await page.getByText('Securities and Exchange Commission (SEC) Philippines').waitFor();
      await page.getByRole('link', { name: 'File a complaint' }).click();
      await page.waitForURL('**/account#complaints');
      await page.getByRole('form', { name: 'Complaints' }).waitFor();

      // Nothing chosen: the form says what is missing and files nothing.
      await page.getByRole('button', { name: 'File complaint' }).click();
      await page.getByText('Please choose what your complaint is about.').waitFor();

      await page.getByRole('textbox', { name: 'What is it about?' }).click();
      await page.getByRole('option', { name: 'Collection practices' }).click();
      await page
        .getByRole('textbox', { name: 'Your complaint' })
        .fill('A collector called me at 11 pm and spoke to my neighbour about my loan.');
      await page.locator('input[type="file"]').setInputFiles(picture);
      await page.getByRole('button', { name: 'File complaint' }).click();
      const filed = page.getByRole('article').first();
      await filed.getByText('Received').waitFor();
      reference = (await filed.locator('p').first().textContent()) ?? '';
      expect(reference).toMatch(/^C-\d{4}-\d{6}$/);
      await filed.getByText('No reply yet. We answer every complaint.').waitFor();
      await filed.getByRole('link', { name: 'View picture' }).waitFor();
      await screenshot(page, 'complaints-borrower-desktop');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'complaints-borrower-phone');
    } finally {
      await context.close();
    }

    // The officer: the queue, the complaint, a reply, then the resolution.
    const staff = await newPage(browser, 'desktop');
    try {
      const p = staff.page;
      await logInInBrowser(p, officer.username, officer.password);
      await p.waitForURL('**/admin/home');
      await p.getByRole('link', { name: 'Complaints' }).click();
      await p.waitForURL('**/admin/complaints');
      const box = p.getByLabel('Reference', { exact: true });
      await box.fill(reference);
      await box.press('Enter');
      const row = p.locator('tbody tr', { hasText: reference });
      await row.waitFor();
      await expect.poll(() => p.locator('tbody tr').count()).toBe(1);
      await row.getByText('Collection practices').waitFor();
      await screenshot(p, 'complaints-staff-queue-desktop');

      await row.getByRole('button', { name: `Actions for ${reference}` }).click();
      await p.getByRole('menuitem', { name: 'View and reply' }).click();
      const dialog = p.getByRole('dialog', { name: `Complaint ${reference}` });
      await dialog.getByText('A collector called me at 11 pm').waitFor();
      await dialog.getByRole('img', { name: 'Picture attached by the borrower' }).waitFor();
      await dialog
        .getByRole('textbox', { name: 'Reply to the borrower' })
        .fill('We are sorry. We have stopped calls after 9 pm and are speaking with the collector.');
      await screenshot(p, 'complaints-staff-reply-desktop', { fullPage: false });
      await dialog.getByRole('button', { name: 'Send reply' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await row.getByText('In progress').waitFor();

      await row.getByRole('button', { name: `Actions for ${reference}` }).click();
      await p.getByRole('menuitem', { name: 'Resolve' }).click();
      const resolve = p.getByRole('dialog', { name: `Resolve ${reference}` });
      await resolve
        .getByRole('textbox', { name: 'Resolution (shown to the borrower)' })
        .fill('The collector was retrained; you will only be called between 8 am and 9 pm.');
      await resolve.getByRole('button', { name: 'Resolve' }).click();
      await resolve.waitFor({ state: 'hidden' });
      // Resolved complaints leave the open queue.
      await expect.poll(() => p.locator('tbody tr', { hasText: reference }).count()).toBe(0);
      await p.setViewportSize({ width: 390, height: 844 });
      await p.getByRole('textbox', { name: 'Show' }).click();
      await p.getByRole('option', { name: 'All' }).click();
      await p.locator('tbody tr', { hasText: reference }).getByText('Resolved').waitFor();
      await screenshot(p, 'complaints-staff-queue-phone');
    } finally {
      await staff.context.close();
    }

    // The borrower again: the reply, the resolution, the status.
    const again = await newPage(browser, 'desktop');
    try {
      await logInInBrowser(again.page, borrower.phone, borrower.password);
      await openComplaints(again.page);
      const item = again.page.getByRole('article', { name: reference });
      await item.getByText('Resolved', { exact: true }).waitFor();
      await item.getByText('We have stopped calls after 9 pm').waitFor();
      await item.getByText('The collector was retrained').waitFor();
      await screenshot(again.page, 'complaints-borrower-resolved-desktop');
    } finally {
      await again.context.close();
    }
  });
});
