import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsCatalogue } from '../src/domain/sms-texts';
import { ApiSession, expectStatus } from './support/api';
import {
  type Borrower,
  currentNoticeVersion,
  latestDisbursement,
  logInInBrowser,
  submitApplication,
  withdrawThroughApi,
} from './support/borrower';
import { baseUrl, launchBrowser, newPage, screenshot, uniquePhone } from './support/browser';
import { runningServer } from './support/server';
import { approve, markPaid, type StaffMember, staffMember } from './support/staff';
import { appStrings } from './support/strings';

/**
 * Every SMS reaches the borrower in their language (issue #36), read from the development outbox as the
 * phone would show them: a borrower who signs up from the Khmer screen gets the sign-up code and the
 * approval in Khmer; after switching the app to Filipino in the browser, the withdrawal code and the payout
 * message come in Filipino. Codes carry the safety line in that language; no message is in English.
 */
interface Sms {
  text: string;
  purpose: string;
  sentAt: string;
}

let browser: Browser;
let officer: StaffMember;
let finance: StaffMember;

const manilaToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(new Date());

beforeAll(async () => {
  // 10:00 in Manila: messages of a change are sent at once (never between 22:00 and 06:00), whatever the
  // hour this runs at; the outbox's sender runs every 15 s with the jobs on.
  await runningServer().restart({
    TEST_CLOCK_START: new Date(`${manilaToday()}T02:00:00.000Z`).toISOString(),
    JOBS_ENABLED: 'true',
  });
  browser = await launchBrowser();
  officer = await staffMember('officer', uniquePhone());
  finance = await staffMember('finance', uniquePhone());
});
afterAll(async () => {
  await browser?.close();
});

async function outbox(phone: string): Promise<Sms[]> {
  const response = await fetch(`${baseUrl()}/api/dev/outbox?phone=${phone}`);
  return ((await response.json()) as { messages: Sms[] }).messages;
}

/** Waits until the outbox holds a message for `phone` that `match` finds (the sender runs every 15 s). */
async function waitForSms(phone: string, match: (sms: Sms) => boolean, what: string): Promise<Sms> {
  for (let i = 0; i < 180; i++) {
    const found = (await outbox(phone)).find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No ${what} reached ${phone}: ${JSON.stringify(await outbox(phone))}`);
}

const english = /\b(your|we|loan|payment|code|reason|app|approved|sent)\b/i;
const khmer = /[\u1780-\u17ff]/;

describe('every SMS in the borrower’s language', () => {
  it('Khmer from the sign-up screen, then Filipino after switching the app', async () => {
    // Sign-up as the Khmer screen does it: the code is asked for, and the account made, in Khmer.
    const phone = uniquePhone();
    const password = 'borrower pass 42';
    const api = new ApiSession();
    expectStatus(
      await api.request('POST', '/api/auth/signup/code', { phone, language: 'km' }),
      200,
      'sign-up code',
    );
    const signupSms = await waitForSms(phone, (m) => m.purpose === 'signup', 'sign-up code');
    const code = /\b(\d{6})\b/.exec(signupSms.text)![1]!;
    expectStatus(
      await api.request('POST', '/api/auth/signup', {
        phone,
        password,
        confirmPassword: password,
        code,
        privacyNoticeVersion: await currentNoticeVersion(),
        language: 'km',
      }),
      201,
      'sign up',
    );
    await api.login(phone, password);
    const borrower: Borrower = { phone, password, api };

    const application = await submitApplication(borrower, { fullName: 'Sokha Chan', amount: 50_000 });
    const { loanNumber } = await approve(officer.api, application.id, 600);
    const approval = await waitForSms(phone, (m) => m.text.includes(loanNumber), 'approval');

    // In the browser (390 px), the borrower switches the app to Filipino: the server keeps it.
    const { context, page } = await newPage(browser, 'phone');
    try {
      await logInInBrowser(page, phone, password);
      // A new device: the screen follows the language the account keeps, Khmer from the sign-up.
      await page.getByRole('button', { name: appStrings('km')('common.language') }).click();
      expect(await page.locator('html').getAttribute('lang')).toBe('km');
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/api/account/language') && r.request().method() === 'POST',
      );
      await page.getByRole('menuitem', { name: 'Filipino' }).click();
      expect((await saved).status()).toBe(200);
      await screenshot(page, 'messages-language-filipino-phone');
    } finally {
      await context.close();
    }

    const before = (await outbox(phone)).length;
    const payoutId = await withdrawThroughApi(borrower, 20_000);
    await markPaid(finance.api, payoutId, 'BDO-LANG-58');
    expect((await latestDisbursement(borrower)).id).toBe(payoutId);
    const payout = await waitForSms(
      phone,
      (m) => m.purpose !== 'withdrawal' && m.text.includes('ipinadala namin'),
      'payout message',
    );
    const all = await outbox(phone);
    const withdrawalCode = all.find((m) => m.purpose === 'withdrawal')!;
    expect(all.length).toBeGreaterThan(before);

    // Khmer before the switch: the code with its safety line, the approval; no English.
    for (const sms of [signupSms, approval]) {
      expect(sms.text, sms.text).toMatch(khmer);
      expect(sms.text, sms.text).not.toMatch(english);
    }
    expect(signupSms.text).toContain(smsCatalogue.km.safety);
    expect(approval.text.startsWith('Hiram៖')).toBe(true);

    // Filipino after it: the withdrawal code with the Filipino safety line, the payout message.
    expect(withdrawalCode.text).toContain(smsCatalogue.fil.safety);
    expect(payout.text).toContain('pautang');
    for (const sms of [withdrawalCode, payout]) {
      expect(sms.text, sms.text).not.toMatch(khmer);
      expect(sms.text, sms.text).not.toMatch(/\b(your|we|loan|payment|reason)\b/i);
    }
  });
});
