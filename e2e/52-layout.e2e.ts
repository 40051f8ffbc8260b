import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fresh,
  landedAfterSignIn,
  listShown,
  markEarlier,
  openInApp,
  settled,
  trackRequests,
} from './helpers-in-app';
import { type ApiSession, expectStatus } from './support/api';
import {
  type Borrower,
  borrowerWithApplication,
  borrowerWithApprovedLoan,
  latestDisbursement,
  signUpBorrower,
  withdrawThroughApi,
} from './support/borrower';
import { baseUrl, launchBrowser, screenshot, viewports } from './support/browser';
import { providerPays } from './support/payments';
import { salaryLoanTerms } from './support/products';
import { runningServer } from './support/server';
import { markPaid, type StaffMember, setHold, staffMember } from './support/staff';
import { appStrings, type Strings } from './support/strings';

/**
 * Issue #32: no screen scrolls sideways on a 390 px phone, in any of the four languages. Every borrower
 * screen in the states a real borrower meets (no loan, waiting for a decision, new terms, rejected,
 * approved before payout with the withdrawal preview, on hold, repaying, overdue, closed with money held and
 * sent back, receipts, the account page with every section open, both application steps with their
 * messages, sign-in, sign-up and forgotten password) and every back-office screen and dialog with long
 * content. A screen passes when the document is no wider than the window (and an open dialog no wider than
 * itself); a failure names the screen, the language and the elements that stick out, with their right edge.
 * Tables may scroll inside their own container; the page may not.
 */

const languages = ['en', 'fil', 'zh', 'km'] as const;
type Lang = (typeof languages)[number];
type T = Strings;

const WEBHOOK_SECRET = 'e2e-layout-webhook-secret-0123456789abcdef-01234';
const webhookEnv = { PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRET, PAYMENTS_WEBHOOK_CHANNEL: 'gcash' };
const strings = appStrings;

let browser: Browser;
let admin: StaffMember;
let adminApi: ApiSession;

/** No application yet: step 1, step 2, the empty wallet and the account page. */
let newcomer: Borrower;
/** An application waiting for a decision: the tracker. */
let waiting: Borrower;
/** Staff proposed new terms: the acceptance card. */
let reviewing: Borrower;
/** A rejected application, with its reason. */
let rejected: Borrower;
/** Approved, nothing withdrawn yet: the withdraw form and its preview. */
let approved: Borrower;
/** Approved and put on hold, with the message staff wrote. */
let onHold: Borrower;
/** Approved, a withdrawal waiting for finance; a complaint with a reply. */
let withdrawing: Borrower & { applicationId: string; loanNumber: string };
/** Paid out, two repayments (one reversed): the wallet, receipts and the staff loan page. */
let repaying: Borrower & {
  applicationId: string;
  loanNumber: string;
  payoutId: string;
  paymentIds: string[];
};
/** Paid in full with ₱100 above the payoff, held for the borrower. */
let closedWithCredit: Borrower & { applicationId: string };
/** Paid in full with ₱100 above the payoff, sent back by finance. */
let closedRefunded: Borrower & { applicationId: string };
/** Paid out today; overdue once the server restarts with a later clock (the last describe). */
let goingOverdue: Borrower & { applicationId: string; loanNumber: string };
/** A second loan product: step 1 offers a choice, and the back office shows it. */
let productId: string;

const manilaToday = (at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila' }).format(at);

/** A loan paid out today (₱`pesos` of ₱50,000 over 6 months). */
async function paidOut(fullName: string, pesos: number) {
  const borrower = await borrowerWithApprovedLoan(admin.api, { fullName, amount: 50_000, termMonths: 6 });
  await withdrawThroughApi(borrower, pesos);
  const payoutId = (await latestDisbursement(borrower)).id;
  await markPaid(admin.api, payoutId, `BDO-TRF-${randomUUID().slice(0, 8).toUpperCase()}`);
  return { ...borrower, payoutId };
}

async function ledgerOf(loanId: string) {
  const ledger = await adminApi.request<{ position: { asOf: string; payoffMinor: number } }>(
    'GET',
    `/api/staff/loans/${loanId}/ledger`,
  );
  expectStatus(ledger, 200, 'ledger');
  return ledger.body.position;
}

async function recordRepayment(loanId: string, amount: string, reference: string) {
  const { asOf } = await ledgerOf(loanId);
  const recorded = await adminApi.request<{ id: string }>('POST', `/api/staff/loans/${loanId}/repayments`, {
    amount,
    receivedOn: asOf,
    channel: 'gcash',
    reference,
  });
  expectStatus(recorded, 201, `record repayment ${reference}`);
  return recorded.body.id;
}

/** Paid in full and ₱100 more (held as the borrower's credit). */
async function closedLoan(fullName: string) {
  const borrower = await paidOut(fullName, 20_000);
  const { payoffMinor } = await ledgerOf(borrower.applicationId);
  await recordRepayment(
    borrower.applicationId,
    ((payoffMinor + 10_000) / 100).toFixed(2),
    `GC-PAYOFF-${randomUUID().slice(0, 6)}`,
  );
  return borrower;
}

/** The payment provider tells of a payment whose reference matches no loan: it waits in Unapplied. */
async function unmatchedPayment() {
  await providerPays(WEBHOOK_SECRET, {
    paymentReference: 'PAYMENT FOR MY LOAN PO',
    amountMinor: 152_550,
    payerName: 'Ma. Concepcion Villanueva-Dela Cruz',
  });
}

beforeAll(async () => {
  // The payment provider's webhook on, for a payment kept in Unapplied.
  await runningServer().restart(webhookEnv);
  browser = await launchBrowser();
  admin = await staffMember('admin');
  adminApi = admin.api;

  newcomer = await signUpBorrower();
  waiting = await borrowerWithApplication({
    fullName: 'Ma. Concepcion Villanueva-Dela Cruz',
    amount: 60_000,
  });
  const proposal = await borrowerWithApplication({ fullName: 'Tess Villanueva', amount: 100_000 });
  reviewing = proposal;
  expectStatus(
    await adminApi.request('POST', `/api/staff/applications/pending/${proposal.application.id}/terms`, {
      amount: 150_000,
      termMonths: 12,
      reason: 'Your income supports a larger loan, so we offer you more over a longer time.',
    }),
    200,
    'propose new terms',
  );
  const toReject = await borrowerWithApplication({ fullName: 'Rogelio Manalastas', amount: 80_000 });
  rejected = toReject;
  expectStatus(
    await adminApi.request('POST', `/api/staff/applications/${toReject.application.id}/reject`, {
      reason: 'The payslip you sent does not show your name; please apply again with a clear copy.',
    }),
    200,
    'reject',
  );
  approved = await borrowerWithApprovedLoan(adminApi, { fullName: 'Lorna Dizon', creditScore: 620 });
  const held = await borrowerWithApprovedLoan(adminApi, { fullName: 'Jerome Bautista' });
  await setHold(adminApi, held.applicationId, 'hold', 'Please call our office to confirm your identity.');
  onHold = held;
  withdrawing = await borrowerWithApprovedLoan(adminApi, { fullName: 'Maricel Panganiban', amount: 80_000 });
  await withdrawThroughApi(withdrawing, 5_000);

  const paying = await paidOut('Paolo Reyes', 40_000);
  const paymentIds = [
    await recordRepayment(paying.applicationId, '5,000.00', 'GCASH-REF-1001'),
    await recordRepayment(paying.applicationId, '1,250.50', 'GCASH-REF-1002'),
  ];
  expectStatus(
    await adminApi.request('POST', `/api/staff/repayments/${paymentIds[1]}/reverse`, {
      reason: 'Entered on the wrong loan; the money was for HL-26-000001.',
    }),
    200,
    'reverse repayment',
  );
  repaying = { ...paying, paymentIds };

  closedWithCredit = await closedLoan('Dario Mendoza');
  closedRefunded = await closedLoan('Rosa Villanueva');
  expectStatus(
    await adminApi.request('POST', `/api/staff/loans/${closedRefunded.applicationId}/refunds`, {
      amount: '100',
      reference: 'GC-REFUND-77120',
    }),
    201,
    'refund the credit',
  );
  goingOverdue = await paidOut('Arnel Macaraeg', 20_000);

  // Pending: an approval waiting for a second staff member, and a plain application for the dialogs.
  const large = await borrowerWithApplication({ fullName: 'Dado Lim', amount: 200_000 });
  expectStatus(
    await adminApi.request('POST', `/api/staff/applications/${large.application.id}/approve`, {
      creditScore: 600,
    }),
    200,
    'first approval',
  );
  await borrowerWithApplication({ fullName: 'Ramon Cruz', amount: 60_000 });

  // A complaint with a reply: the borrower's complaints and the staff queue.
  const complaint = new FormData();
  complaint.set('category', 'payments');
  complaint.set(
    'text',
    'My payment of 5 November through GCash (reference 7012345678901) is not shown yet in my wallet.',
  );
  const filed = await withdrawing.api.request<{ id: string }>('POST', '/api/complaints', complaint);
  expectStatus(filed, 201, 'file complaint');
  expectStatus(
    await adminApi.request('POST', `/api/staff/complaints/${filed.body.id}/replies`, {
      message: 'Thank you, we are checking it with the bank and will write again within two days.',
    }),
    200,
    'reply to complaint',
  );
  await unmatchedPayment();
  // A closed account, for the Account closures list.
  const leaving = await signUpBorrower();
  expectStatus(
    await leaving.api.request('POST', '/api/account/close', { password: leaving.password }),
    200,
    'close account',
  );

  // Last, as applications above are sent without choosing a product: a second product, so step 1 offers a
  // choice (with its long names) and the back office lists two.
  const created = await adminApi.request<{ id: string }>('POST', '/api/staff/products', {
    code: 'salary-loan',
    terms: salaryLoanTerms,
  });
  expectStatus(created, 201, 'create product');
  productId = created.body.id;
});
afterAll(async () => {
  await browser?.close();
});

/** A phone-sized window in `lang`, chosen as the language switch keeps it (local storage, `hiram.lang`). */
async function phone(lang: Lang) {
  const context = await browser.newContext({
    viewport: viewports.phone,
    baseURL: baseUrl(),
    locale: 'en-US',
  });
  await context.addInitScript((language) => window.localStorage.setItem('hiram.lang', language), lang);
  return { context, page: trackRequests(await context.newPage()) };
}

/**
 * Signs in through the sign-in page in the reader's language; any earlier session in the window is
 * dropped first (one window serves several borrowers, one after another, as a shared phone would).
 */
async function signIn(page: Page, t: T, identifier: string, password: string) {
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel(t('auth.login.identifier')).fill(identifier);
  await page.getByLabel(t('auth.login.password'), { exact: true }).fill(password);
  await page.getByRole('button', { name: t('auth.login.submit') }).click();
  await landedAfterSignIn(page);
}

interface Overflow {
  /** "the page" or "the dialog …". */
  where: string;
  /** How far it scrolls sideways, in CSS pixels. */
  by: number;
  /** The outermost elements sticking out, widest first: a CSS path, its right edge, its text. */
  culprits: { selector: string; right: number; text: string }[];
}

/**
 * Whether the page (or an open dialog) scrolls sideways, and which elements stick out: those past the right
 * edge that are not inside a container of their own that scrolls or clips (a table's scroll container
 * may be wider than the phone, the page may not), outermost first.
 */
function measureOverflow(): Overflow[] {
  const selectorOf = (element: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = element; e && e !== document.body && parts.length < 6; e = e.parentElement) {
      let part = e.tagName.toLowerCase();
      if (e.id) {
        parts.unshift(`${part}#${CSS.escape(e.id)}`);
        break;
      }
      const testId = e.getAttribute('data-testid');
      if (testId) part += `[data-testid="${testId}"]`;
      const classes = [...e.classList].filter((c) => !/^m_[0-9a-f]+$/.test(c)).slice(0, 2);
      part += classes.map((c) => `.${CSS.escape(c)}`).join('');
      const siblings = e.parentElement
        ? [...e.parentElement.children].filter((s) => s.tagName === e?.tagName)
        : [];
      if (siblings.length > 1) part += `:nth-of-type(${siblings.indexOf(e) + 1})`;
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  /** The nearest ancestor that clips or scrolls sideways, or is fixed (its content scrolls with it). */
  const containerOf = (element: Element): Element | null => {
    for (let e = element.parentElement; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.overflowX !== 'visible' || style.position === 'fixed') return e;
    }
    return null;
  };
  const culpritsIn = (root: Element | null, right: number) => {
    const all = [...(root ?? document.body).querySelectorAll('*')].filter(
      (e) =>
        containerOf(e) === root &&
        getComputedStyle(e).position !== 'fixed' &&
        e.getBoundingClientRect().right > right + 0.5,
    );
    const outermost = all.filter((e) => !all.includes(e.parentElement as Element));
    return outermost
      .map((e) => ({
        selector: selectorOf(e),
        right: Math.round(e.getBoundingClientRect().right * 10) / 10,
        // biome-ignore lint/performance/useDomNodeTextContent: what a person reads there
        text: ((e as HTMLElement).innerText ?? e.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60),
      }))
      .sort((a, b) => b.right - a.right)
      .slice(0, 4);
  };

  const found: Overflow[] = [];
  const page = document.documentElement.scrollWidth - window.innerWidth;
  if (page > 0) found.push({ where: 'the page', by: page, culprits: culpritsIn(null, window.innerWidth) });
  // The app's header stays put (fixed): what does not fit in it is cut off, never scrolled to.
  for (const header of document.querySelectorAll('header')) {
    const by = header.scrollWidth - header.clientWidth;
    if (by > 0 && header.getBoundingClientRect().width > 0)
      found.push({
        where: 'the header',
        by,
        culprits: culpritsIn(header, header.getBoundingClientRect().right),
      });
  }
  // A dialog scrolls inside its own box: that box must fit the window and not scroll sideways.
  for (const dialog of document.querySelectorAll('[role="dialog"]')) {
    const box = dialog.getBoundingClientRect();
    if (box.width === 0) continue;
    const name = dialog.getAttribute('aria-label') ?? dialog.querySelector('h2')?.textContent ?? '';
    const by = Math.max(dialog.scrollWidth - dialog.clientWidth, Math.ceil(box.right - window.innerWidth));
    if (by > 0) {
      const scrolls = getComputedStyle(dialog).overflowX !== 'visible';
      found.push({
        where: `the dialog "${name}"`,
        by,
        culprits: culpritsIn(scrolls ? dialog : null, Math.min(box.right, window.innerWidth)),
      });
    }
  }
  return found;
}

/** Screenshots of every screen for a person when LAYOUT_SCREENSHOTS is set; of failing ones always. */
const screenshotAll = Boolean(process.env.LAYOUT_SCREENSHOTS);

const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split('\n')[0];

/**
 * One window's screens, checked one after another; what is wrong with each is kept (an overflow, or a
 * screen that did not come up) so one run lists every screen's problems, not just the first.
 */
class Screens {
  readonly findings: string[] = [];
  constructor(
    readonly page: Page,
    readonly lang: Lang,
  ) {
    page.setDefaultTimeout(15_000);
  }

  /**
   * Brings the screen up with `open` (navigation, clicks, waiting for what it shows), then checks that
   * nothing scrolls sideways: one line per overflow ("screen (lang): the page scrolls sideways by N px;
   * sticks out: <selector> to x=… "text"").
   */
  async check(screen: string, open: () => Promise<unknown>, options: { dialog?: boolean } = {}) {
    const shot =
      `layout-${this.lang}-${screen.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`.toLowerCase();
    try {
      await open();
      // Its data in and drawn, no spinner, its transitions over: a half-drawn screen proves nothing.
      await settled(this.page);
    } catch (error) {
      await screenshot(this.page, `${shot}-not-shown`).catch(() => {});
      this.findings.push(`${screen} (${this.lang}): did not come up: ${firstLine(error)}`);
      return false;
    }
    const overflows = await this.page.evaluate(measureOverflow);
    if (screenshotAll || overflows.length > 0)
      await screenshot(this.page, shot, { fullPage: !options.dialog });
    this.findings.push(
      ...overflows.map(
        (o) =>
          `${screen} (${this.lang}): ${o.where} scrolls sideways by ${o.by} px; sticks out: ${
            o.culprits.map((c) => `${c.selector} to x=${c.right} "${c.text}"`).join('; ') || 'nothing found'
          }`,
      ),
    );
    return true;
  }

  /** A dialog opened by `open`: checked, then closed with Escape. */
  async dialog(screen: string, open: () => Promise<unknown>, ready?: (dialog: Locator) => Promise<unknown>) {
    const dialog = this.page.getByRole('dialog');
    await this.check(
      screen,
      async () => {
        await open();
        await dialog.waitFor();
        await ready?.(dialog);
      },
      { dialog: true },
    );
    if ((await dialog.count()) > 0) {
      await this.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' }).catch(() => {});
    }
  }
}

/** Opens the row's "Actions" menu and chooses `item`. */
async function rowAction(page: Page, row: Locator, item: string) {
  await row.locator('button[aria-haspopup="menu"]').first().click();
  await page.getByRole('menuitem', { name: item, exact: true }).click();
}

/** Opens every closed section of the account page's accordion. */
async function openAccordion(page: Page) {
  for (const control of await page.locator('.mantine-Accordion-control').all()) {
    if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
  }
}

/** Opens every section of step 2 (each section's first toggle). */
async function openStep2Sections(page: Page) {
  for (const name of ['identity', 'basic', 'bank', 'signature']) {
    const control = page.locator(`#section-${name} button[aria-expanded]`).first();
    if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
  }
}

/** A borrower's page has drawn its content (the header's title is outside main), not the page before's. */
const mainContent = (page: Page) => fresh(page, page.locator('main :is(h2, h3)')).first().waitFor();

/** The screen at `path`, opened inside the app; `ready` is what it shows (and the screen before did not). */
async function open(page: Page, path: string, ready: Locator) {
  await openInApp(page, path);
  await fresh(page, ready).first().waitFor();
}

async function withPhone(lang: Lang, run: (screens: Screens) => Promise<void>): Promise<string[]> {
  const { context, page } = await phone(lang);
  const screens = new Screens(page, lang);
  try {
    await run(screens);
  } catch (error) {
    await screenshot(page, `layout-${lang}-stopped`).catch(() => {});
    screens.findings.push(`(${lang}) stopped at ${page.url()}: ${firstLine(error)}`);
  } finally {
    await context.close();
  }
  return screens.findings;
}

// The four languages side by side, each in its own window (they only read what beforeAll made: a failed
// sign-in, dialogs closed unsent), each language's screens one after another. Alone this file waited on
// the browser and the server for 217 s while using 68 s of CPU, the longest file of the e2e stage.
describe.concurrent.each(languages)('no sideways scroll at 390 px (%s)', (lang) => {
  const t = strings(lang);

  it.sequential('signed out: sign-in, sign-up and forgotten password, with their messages', async ({
    expect,
  }) => {
    const findings = await withPhone(lang, async (s) => {
      const { page } = s;
      await s.check('sign-in', async () => {
        await page.goto('/login');
        await page.getByRole('button', { name: t('auth.login.submit') }).waitFor();
      });
      await s.check('sign-in (refused)', async () => {
        await page.getByLabel(t('auth.login.identifier')).fill('09170000000');
        await page.getByLabel(t('auth.login.password'), { exact: true }).fill('not the password');
        await page.getByRole('button', { name: t('auth.login.submit') }).click();
        await page.getByRole('alert').first().waitFor();
      });
      await s.check('sign-up', () =>
        open(page, '/signup', page.getByRole('button', { name: t('auth.signup.submit') })),
      );
      await s.check('sign-up (errors)', async () => {
        await page.getByLabel(t('auth.signup.phone'), { exact: true }).fill('0917');
        await page.getByRole('button', { name: t('auth.signup.submit') }).click();
        await page.locator('.mantine-InputWrapper-error').first().waitFor();
      });
      await s.check('forgotten password', () =>
        open(page, '/forgot-password', page.getByRole('button', { name: t('auth.forgot.submit') })),
      );
      await s.check('forgotten password (errors)', async () => {
        await page.getByLabel(t('auth.forgot.phone'), { exact: true }).fill('09170000000');
        await page.getByLabel(t('auth.forgot.code')).fill('123456');
        await page.getByLabel(t('auth.forgot.password'), { exact: true }).fill('mango season 2026');
        await page.getByLabel(t('auth.forgot.confirmPassword')).fill('mango season 2027');
        await page.getByRole('button', { name: t('auth.forgot.submit') }).click();
        await page.locator('.mantine-InputWrapper-error').first().waitFor();
      });
    });
    expect(findings).toEqual([]);
  });

  it.sequential('a borrower with no loan: step 1 and step 2 with their messages, the wallet and the account', async ({
    expect,
  }) => {
    const findings = await withPhone(lang, async (s) => {
      const { page } = s;
      const apply = page.getByRole('button', { name: t('application.step1.apply') });
      const choice = page.locator('input[type="radio"]');
      await s.check('step 1', async () => {
        await signIn(page, t, newcomer.phone, newcomer.password);
        await apply.waitFor();
      });
      // The second product chosen, then a phone number that is refused.
      await s.check('step 1 (errors)', async () => {
        if ((await choice.count()) > 1) await choice.nth(1).check();
        await page.getByLabel(t('application.step1.phone')).fill('12');
        await apply.click();
        await page.locator('.mantine-InputWrapper-error').first().waitFor();
      });
      await s.check('step 2', async () => {
        await page.getByLabel(t('application.step1.phone')).fill(newcomer.phone);
        if ((await choice.count()) > 1) await choice.nth(0).check();
        await apply.click();
        await page.waitForURL('**/loan/info');
        await openStep2Sections(page);
        await page.locator('[data-testid="signature-pad"][data-ready]').waitFor();
      });
      // Submit stays disabled until every section is complete; closing a section shows what it still needs.
      await s.check('step 2 (errors)', async () => {
        for (const name of ['identity', 'basic', 'bank', 'signature']) {
          const control = page.locator(`#section-${name} button[aria-expanded]`).first();
          await control.click();
          await control.click();
        }
        await page.locator('.mantine-InputWrapper-error').first().waitFor();
      });
      await s.check('wallet (no loan)', async () => {
        await openInApp(page, '/wallet');
        await mainContent(page);
      });
      await s.check('account (every section open)', async () => {
        await open(page, '/account', page.getByTestId('credit-rating'));
        await openAccordion(page);
      });
      await s.dialog('close account dialog', () =>
        page.getByRole('button', { name: t('privacy.account.close.button') }).click(),
      );
    });
    expect(findings).toEqual([]);
  });

  it.sequential('before the payout: waiting for a decision, new terms, rejected, approved with the preview, on hold, a withdrawal waiting', async ({
    expect,
  }) => {
    const findings: string[] = [];
    const visits: [string, Borrower][] = [
      ['waiting for a decision', waiting],
      ['new terms to accept', reviewing],
      ['rejected', rejected],
      ['approved', approved],
      ['on hold', onHold],
      ['withdrawal waiting', withdrawing],
    ];
    // One window, each borrower signed in after the other.
    findings.push(
      ...(await withPhone(lang, async (s) => {
        const { page } = s;
        for (const [state, borrower] of visits) {
          await signIn(page, t, borrower.phone, borrower.password);
          // Signing in lands on the borrower's home (/loan/application).
          await s.check(`home (${state})`, async () => {
            await openInApp(page, '/loan/application');
            await mainContent(page);
          });
          await s.check(`wallet (${state})`, async () => {
            await openInApp(page, '/wallet');
            await mainContent(page);
          });
          if (borrower === approved) {
            await s.check('wallet (withdrawal preview)', async () => {
              await page.getByLabel(t('wallet.withdraw.amount')).fill('2000');
              await page.getByTestId('preview-monthly').waitFor();
            });
          }
          if (borrower === withdrawing) {
            await s.check('account (complaints with a reply)', () =>
              open(
                page,
                '/account#complaints',
                page.getByText('we are checking it with the bank', { exact: false }),
              ),
            );
          }
        }
      })),
    );
    expect(findings).toEqual([]);
  });

  it.sequential('after the payout: repaying, receipts, closed with money held and sent back', async ({
    expect,
  }) => {
    const findings = await withPhone(lang, async (s) => {
      const { page } = s;
      await signIn(page, t, repaying.phone, repaying.password);
      await s.check('home (repaying)', () => open(page, '/loan/application', page.getByTestId('loan-now')));
      await s.check('wallet (repaying)', () => open(page, '/wallet', page.getByTestId('payment')));
      for (const [name, path] of [
        ['payment receipt', `/wallet/receipts/payments/${repaying.paymentIds[0]}`],
        ['reversed payment receipt', `/wallet/receipts/payments/${repaying.paymentIds[1]}`],
        ['payout receipt', `/wallet/receipts/payouts/${repaying.payoutId}`],
      ] as const) {
        await s.check(name, () => open(page, path, page.getByTestId('receipt-amount')));
      }
      await s.check('account (repaying, every section open)', async () => {
        await open(page, '/account', page.getByTestId('credit-rating'));
        await openAccordion(page);
      });
      for (const [state, borrower] of [
        ['paid in full, money held', closedWithCredit],
        ['paid in full, money sent back', closedRefunded],
      ] as const) {
        await signIn(page, t, borrower.phone, borrower.password);
        await s.check(`wallet (${state})`, async () => {
          await openInApp(page, '/wallet');
          await mainContent(page);
        });
        await s.check(`home (${state})`, async () => {
          await openInApp(page, '/loan/application');
          await mainContent(page);
        });
      }
    });
    expect(findings).toEqual([]);
  });

  it.sequential('back office: every screen', async ({ expect }) => {
    const findings = await withPhone(lang, async (s) => {
      const { page } = s;
      await s.check('/admin/home', async () => {
        await signIn(page, t, admin.username, admin.password);
        await page.waitForURL('**/admin/home');
        await page.locator('[data-testid="card-totalLoans-value"]:not([aria-busy="true"])').waitFor();
      });
      // The navigation, opened from the header on a phone (with the live pending count).
      await s.check('staff navigation (open)', async () => {
        await page.locator('header button.mantine-Burger-root').click();
        await page.locator('nav a').first().waitFor();
      });
      // Pending through the navigation's own link (which closes it), the others opened inside the app.
      await s.check('/admin/pending', async () => {
        await markEarlier(page);
        await page.locator('nav a[href="/admin/pending"]').click();
        await fresh(page, page.locator('tbody tr')).first().waitFor();
        // Closed again: the burger offers to open it.
        await page.getByRole('button', { name: t('common.openNavigation') }).waitFor();
      });
      for (const path of [
        '/admin/approved',
        '/admin/servicing',
        '/admin/disbursements',
        '/admin/repayments',
        '/admin/unapplied',
        '/admin/users',
        '/admin/audit',
        '/admin/account-closures',
        '/admin/complaints',
        '/admin/products',
      ]) {
        await s.check(path, () => open(page, path, listShown(page, t('backOffice.common.noResults'))));
      }
      await s.check('/admin/overdue (none yet)', () =>
        open(page, '/admin/overdue', page.locator('main table')),
      );
      await s.check('/admin/products/:id', () =>
        open(page, `/admin/products/${productId}`, page.locator('#product-history')),
      );
      await s.check('/admin/products/new (errors)', async () => {
        const submit = page.locator('main form button[type="submit"]');
        await open(page, '/admin/products/new', submit);
        await fresh(page, submit).last().click();
        await page.locator('.mantine-InputWrapper-error').first().waitFor();
      });
      for (const [name, id] of [
        ['repaying', repaying.applicationId],
        ['paid in full, money held', closedWithCredit.applicationId],
        ['paid in full, money sent back', closedRefunded.applicationId],
        ['approved, a withdrawal waiting', withdrawing.applicationId],
      ] as const) {
        await s.check(`/admin/loans/:id (${name})`, async () => {
          // Before the payout there is no table: the schedule and the repayments say they are empty.
          await open(
            page,
            `/admin/loans/${id}`,
            page.getByRole('heading', { name: t('staffLoans.ledger.title') }),
          );
          await page.locator('main [aria-busy="true"]').waitFor({ state: 'detached' });
        });
      }
      await s.check('/admin/security', () => open(page, '/admin/security', page.locator('main button')));
    });
    expect(findings).toEqual([]);
  });

  it.sequential('back office: dialogs with long content', async ({ expect }) => {
    const findings = await withPhone(lang, async (s) => {
      const { page } = s;
      await signIn(page, t, admin.username, admin.password);
      await page.waitForURL('**/admin/home');

      await open(page, '/admin/pending', page.locator('tbody tr'));
      const ramon = page.locator('tbody tr', { hasText: 'Ramon Cruz' });
      await s.dialog(
        'View Profile',
        () => rowAction(page, ramon, t('backOffice.actions.viewProfile')),
        (d) => d.getByText('Santos Sari-Sari Store').first().waitFor(),
      );
      await s.dialog('Update Loan', () => rowAction(page, ramon, t('backOffice.actions.updateLoan')));
      await s.dialog('Approve', () => rowAction(page, ramon, t('backOffice.actions.approve')));
      await s.dialog(
        'Reject (reason missing)',
        () => rowAction(page, ramon, t('backOffice.actions.reject')),
        async (d) => {
          await d.getByRole('button', { name: t('backOffice.reject.confirm') }).click();
          await d.locator('.mantine-InputWrapper-error').first().waitFor();
        },
      );

      await open(page, '/admin/servicing', page.locator('tbody tr'));
      await s.dialog('Change Status (release)', () =>
        rowAction(
          page,
          page.locator('tbody tr', { hasText: 'Jerome Bautista' }),
          t('servicing.actions.status'),
        ),
      );
      await s.dialog('Change Amount', () =>
        rowAction(page, page.locator('tbody tr', { hasText: 'Lorna Dizon' }), t('servicing.actions.amount')),
      );

      await open(page, '/admin/disbursements', page.locator('tbody tr'));
      await s.dialog('Mark Failed', () =>
        rowAction(
          page,
          page.locator('tbody tr', { hasText: 'Maricel Panganiban' }),
          t('disbursements.actions.markFailed'),
        ),
      );

      await open(page, '/admin/unapplied', page.locator('tbody tr'));
      await s.dialog('Apply payment', () =>
        rowAction(page, page.locator('tbody tr').first(), t('collections.unapplied.actions.apply')),
      );

      await open(page, '/admin/complaints', page.locator('tbody tr'));
      await s.dialog(
        'Complaint and reply',
        () => rowAction(page, page.locator('tbody tr').first(), t('complaints.staff.actions.view')),
        (d) => d.getByText('we are checking it with the bank', { exact: false }).waitFor(),
      );

      await open(
        page,
        `/admin/loans/${repaying.applicationId}`,
        page.getByRole('button', { name: t('staffLoans.record.button') }),
      );
      await s.dialog(
        'Record Repayment (fields missing)',
        () => page.getByRole('button', { name: t('staffLoans.record.button') }).click(),
        async (d) => {
          await d.getByRole('button', { name: t('staffLoans.record.confirm') }).click();
          await d.locator('.mantine-InputWrapper-error').first().waitFor();
        },
      );
      await s.dialog('Reverse Repayment', async () => {
        await page
          .getByRole('button', { name: t('backOffice.rowActions.menuFor', { name: 'GCASH-REF-1001' }) })
          .click();
        await page.getByRole('menuitem', { name: t('staffLoans.reverse.action') }).click();
      });
    });
    expect(findings).toEqual([]);
  });
});

// Last, as it restarts the server 54 days later: the loan paid out today is overdue from here on.
describe('no sideways scroll at 390 px: overdue (the server restarted with a later clock)', () => {
  it('the borrower home and wallet, and the back office Overdue queue, dashboard and loan page', async () => {
    const later = new Date(`${manilaToday()}T03:00:00.000Z`);
    later.setUTCDate(later.getUTCDate() + 54);
    await runningServer().restart({
      ...webhookEnv,
      TEST_CLOCK_START: later.toISOString(),
      JOBS_ENABLED: 'false',
    });
    const findings: string[] = [];
    for (const lang of languages) {
      const t = strings(lang);
      findings.push(
        ...(await withPhone(lang, async (s) => {
          const { page } = s;
          await signIn(page, t, goingOverdue.phone, goingOverdue.password);
          await s.check('wallet (overdue)', () => open(page, '/wallet', page.getByTestId('due-now-amount')));
          await s.check('home (overdue)', () =>
            open(page, '/loan/application', page.getByTestId('due-now-amount')),
          );
          // The same window, staff signed in after the borrower.
          await s.check('/admin/home (overdue loans)', async () => {
            await signIn(page, t, admin.username, admin.password);
            await page.waitForURL('**/admin/home');
            await page.locator('[data-testid="card-totalLoans-value"]:not([aria-busy="true"])').waitFor();
          });
          await s.check('/admin/overdue', () => open(page, '/admin/overdue', page.locator('tbody tr')));
          await s.check('/admin/loans/:id (overdue)', () =>
            open(page, `/admin/loans/${goingOverdue.applicationId}`, page.locator('main table')),
          );
        })),
      );
    }
    expect(findings).toEqual([]);
  });
});
