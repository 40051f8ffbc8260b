import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations, wcag22Tags } from './helpers-axe';
import { fresh, landedAfterSignIn, listShown, openInApp, settled, trackRequests } from './helpers-in-app';
import { expectStatus } from './support/api';
import {
  type Borrower,
  borrowerWithApplication,
  borrowerWithApprovedLoan,
  latestDisbursement,
  logInInBrowser,
  signUpBorrower,
  withdrawThroughApi,
} from './support/borrower';
import {
  baseUrl,
  latestCode,
  launchBrowser,
  screenshot,
  transitionsDone,
  viewports,
} from './support/browser';
import { salaryLoanTerms } from './support/products';
import { runningServer } from './support/server';
import { loadedCard, markPaid, pickRowAction, type StaffMember, staffMember } from './support/staff';
import { rawNamesShown } from './support/stored-names';
import { enrolTotpInBrowser } from './support/totp';

/**
 * Every screen through axe-core in a real browser (WCAG 2.x A/AA rules), at phone and desktop width, in
 * the light and the dark colour scheme: signed out, the borrower's pages and the back office with its
 * dialogs. Serious and critical findings fail the test; each is listed with the screen and the elements.
 * Each screen is opened once and checked in all four looks (the window resized, the system's colour
 * scheme switched, which the app follows live), and screens are opened inside the app rather than by
 * loading the page again: most of this file's time was those loads.
 */

let browser: Browser;
let admin: StaffMember;
/** No application yet: sees the step-1 form and can go on to step 2. */
let newcomer: Borrower;
/** An approved loan with a withdrawal waiting for finance. */
let withdrawing: Borrower;
/** Staff proposed new terms to this borrower: the acceptance screen on the wallet (docs/decisions/018). */
let reviewing: Borrower;
/** A paid-out loan with two repayments, one of them reversed: the staff loan page and Repayments. */
let repaying: { applicationId: string; loanNumber: string };

/** A loan paid out today, repaid twice (the second reversed), all through the API as finance would. */
async function seedRepayingLoan() {
  const borrower = await borrowerWithApprovedLoan(admin.api, { fullName: 'Paolo Reyes', amount: 80_000 });
  await withdrawThroughApi(borrower, 40_000);
  await markPaid(admin.api, (await latestDisbursement(borrower)).id, 'BDO-TRF-5521');
  const ledger = await admin.api.request<{ position: { asOf: string } }>(
    'GET',
    `/api/staff/loans/${borrower.applicationId}/ledger`,
  );
  expectStatus(ledger, 200, 'ledger');
  const repayments: { id: string }[] = [];
  for (const [amount, reference] of [
    ['5,000.00', 'GCASH-REF-1001'],
    ['1,250.50', 'GCASH-REF-1002'],
  ] as const) {
    const recorded = await admin.api.request<{ id: string }>(
      'POST',
      `/api/staff/loans/${borrower.applicationId}/repayments`,
      { amount, receivedOn: ledger.body.position.asOf, channel: 'gcash', reference },
    );
    expectStatus(recorded, 201, 'record repayment');
    repayments.push(recorded.body);
  }
  expectStatus(
    await admin.api.request('POST', `/api/staff/repayments/${repayments[1]!.id}/reverse`, {
      reason: 'Entered on the wrong loan',
    }),
    200,
    'reverse repayment',
  );
  return { applicationId: borrower.applicationId, loanNumber: borrower.loanNumber };
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await staffMember('admin');
  newcomer = await signUpBorrower();
  withdrawing = await borrowerWithApprovedLoan(admin.api, { fullName: 'Lorna Dizon', creditScore: 620 });
  // As the withdraw form does: the preview (re-disclosure) first, then a code for the figures it showed.
  const shown = await withdrawing.api.request<{ planDigest: string }>(
    'POST',
    '/api/wallet/withdrawal-preview',
    {
      amount: 5000,
    },
  );
  expectStatus(shown, 200, 'withdrawal preview');
  const sent = await withdrawing.api.request('POST', '/api/wallet/withdrawal-code', {
    amount: 5000,
    planDigest: shown.body.planDigest,
  });
  expectStatus(sent, 200, 'withdrawal code');
  const code = await latestCode(withdrawing.phone);
  expectStatus(
    await withdrawing.api.request('POST', '/api/wallet/withdrawals', {
      amount: 5000,
      code,
      idempotencyKey: randomUUID(),
    }),
    201,
    'withdraw',
  );
  repaying = await seedRepayingLoan();
  // New terms waiting for the borrower, and an approval waiting for a second staff member (Pending list).
  const proposal = await borrowerWithApplication({ fullName: 'Tess Villanueva', amount: 100_000 });
  reviewing = proposal;
  expectStatus(
    await admin.api.request('POST', `/api/staff/applications/pending/${proposal.application.id}/terms`, {
      amount: 150_000,
      termMonths: 12,
      reason: 'Your income supports a larger loan',
    }),
    200,
    'propose new terms',
  );
  const large = await borrowerWithApplication({ fullName: 'Dado Lim', amount: 200_000 });
  expectStatus(
    await admin.api.request('POST', `/api/staff/applications/${large.application.id}/approve`, {
      creditScore: 600,
    }),
    200,
    'first approval',
  );
  // A complaint with a reply: the borrower's complaints section and the staff Complaints queue have one.
  const complaint = new FormData();
  complaint.set('category', 'payments');
  complaint.set('text', 'My payment of 5 November is not shown yet.');
  const filed = await withdrawing.api.request<{ id: string }>('POST', '/api/complaints', complaint);
  expectStatus(filed, 201, 'file complaint');
  expectStatus(
    await admin.api.request('POST', `/api/staff/complaints/${filed.body.id}/replies`, {
      message: 'Thank you, we are checking it with the bank.',
    }),
    200,
    'reply to complaint',
  );
  // Waiting in the Pending list, for View Profile and the reason dialog.
  await borrowerWithApplication({ fullName: 'Ramon Cruz', amount: 60_000 });
  // A closed account, for the Account closures list.
  const leaving = await signUpBorrower();
  expectStatus(
    await leaving.api.request('POST', '/api/account/close', { password: leaving.password }),
    200,
    'close account',
  );
});
afterAll(async () => {
  await browser?.close();
});

type Viewport = keyof typeof viewports;
type Scheme = 'light' | 'dark';

/** Waits for transitions (a dialog fading in, a section opening) so axe sees the final colours. */
async function settle(page: Page) {
  await transitionsDone(page, 3_000);
}

/** Every look a screen is checked in: phone and desktop width, each in the light and the dark scheme. */
const combinations = (['phone', 'desktop'] as const).flatMap((viewport) =>
  (['light', 'dark'] as const).map((scheme) => [viewport, scheme] as const),
);

/** The window's look: its width and the colour scheme the system asks for (the app follows it live). */
async function look(page: Page, viewport: Viewport, scheme: Scheme) {
  await page.setViewportSize(viewports[viewport]);
  await page.emulateMedia({ colorScheme: scheme });
}

/**
 * Runs axe on the page as it is now, in each look in turn (phone and desktop, light and dark), and
 * leaves the window in the first look; returns the serious and critical findings, one line each, named
 * by the screen and the look. A screenshot of each look (the whole page, or the screen over an open
 * dialog) goes to ./screenshots for a person. Each look is checked once the screen has settled: its data
 * in, no spinner or busy region, transitions over, and the app in that colour scheme. `idle: false` for
 * the loading screen, whose spinner is the screen and whose requests are held back on purpose: it is
 * checked in the window's current look only (its test loads it once per look).
 */
async function audit(
  page: Page,
  screen: string,
  shot: string,
  fullPage = true,
  { idle = true }: { idle?: boolean } = {},
): Promise<string[]> {
  if (!idle) {
    await settle(page);
    return auditNow(page, screen, shot, fullPage);
  }
  const findings: string[] = [];
  for (const [viewport, scheme] of combinations) {
    await look(page, viewport, scheme);
    await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
    await settled(page);
    findings.push(
      ...(await auditNow(
        page,
        `${screen} (${viewport}, ${scheme})`,
        `${shot}-${viewport}-${scheme}`,
        fullPage,
      )),
    );
  }
  await look(page, ...combinations[0]!);
  return findings;
}

async function auditNow(page: Page, screen: string, shot: string, fullPage: boolean): Promise<string[]> {
  const findings = await seriousAxeViolations(page, wcag22Tags);
  await screenshot(page, `a11y-${shot}`, { fullPage });
  // innerText: what a person sees (no hidden text, no inline style or script).
  // biome-ignore lint/performance/useDomNodeTextContent: only the rendered text is what a person reads
  const rawNames = rawNamesShown(await page.evaluate(() => document.body.innerText));
  return [
    ...findings.map(
      (f) =>
        `${screen}: ${f.impact} ${f.id} (${f.help})\n    ${f.nodes
          .slice(0, 12)
          .map((n) => `${n.target} — ${n.failureSummary.replace(/\s+/g, ' ')}`)
          .join('\n    ')}`,
    ),
    ...rawNames.map((name) => `${screen}: shows a stored name instead of words: "${name}"`),
  ];
}

/** One window for a test, in the first look; `audit` takes it through the others. */
async function newContext() {
  const [viewport, colorScheme] = combinations[0]!;
  const context = await browser.newContext({
    viewport: viewports[viewport],
    baseURL: baseUrl(),
    locale: 'en-US',
    colorScheme,
    // axe is injected as an inline script, which the app's Content-Security-Policy rightly refuses.
    bypassCSP: true,
  });
  return { context, page: trackRequests(await context.newPage()) };
}

/** Signs in through the login page; an earlier session in the window is dropped first. */
async function signIn(page: Page, identifier: string, password: string) {
  await page.context().clearCookies();
  await logInInBrowser(page, identifier, password);
  await landedAfterSignIn(page);
}

/** The screen at `path`, opened inside the app; `ready` is what it shows (and the screen before did not). */
async function open(page: Page, path: string, ready: Locator) {
  await openInApp(page, path);
  await fresh(page, ready).first().waitFor();
}

describe('accessibility (phone and desktop, light and dark)', () => {
  it('signed out: log in, sign up and forgotten password', async () => {
    const { context, page } = await newContext();
    try {
      const findings: string[] = [];
      await page.goto('/login');
      await page.getByRole('button', { name: 'Log In' }).waitFor();
      findings.push(...(await audit(page, '/login', 'login')));
      await openInApp(page, '/signup');
      await fresh(page, page.getByRole('button', { name: 'Send code' })).waitFor();
      await page.getByRole('heading', { name: 'Privacy notice' }).waitFor();
      findings.push(...(await audit(page, '/signup', 'signup')));
      await open(page, '/forgot-password', page.getByRole('button', { name: 'Send code' }));
      findings.push(...(await audit(page, '/forgot-password', 'forgot-password')));
      // With a message under a field.
      await page.getByLabel('Phone number', { exact: true }).fill('09170000000');
      await page.getByLabel('Verification code').fill('123456');
      await page.getByLabel('New password', { exact: true }).fill('mango season 2026');
      await page.getByLabel('Confirm new password').fill('mango season 2027');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await page.getByText('Passwords do not match').waitFor();
      findings.push(...(await audit(page, '/forgot-password (errors)', 'forgot-password-errors')));
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("the loading screen index.html shows until the app's JavaScript has run", async () => {
    const { context, page } = await newContext();
    try {
      await page.route('**/assets/*.js', (route) => route.abort());
      const findings: string[] = [];
      // Loaded again in each look: index.html's boot script reads the colour scheme once, before paint.
      for (const [viewport, scheme] of combinations) {
        await look(page, viewport, scheme);
        await page.goto('/login');
        await page.getByRole('status').getByText('Loading...').waitFor();
        // No wait for the network to go quiet: it never would. index.html's boot script asks for /api/me
        // ahead of the app, and with the app's code refused nothing reads that answer, so Playwright counts
        // it in flight until the wait gives up after 30 s; the page can load nothing more meanwhile.
        findings.push(
          ...(await audit(
            page,
            `loading screen (index.html) (${viewport}, ${scheme})`,
            `loading-${viewport}-${scheme}`,
            true,
            {
              idle: false,
            },
          )),
        );
      }
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('borrower: step 1, step 2 with every section open, wallet and account', async () => {
    const findings: string[] = [];
    // One window, the three borrowers signed in one after another.
    const { context, page } = await newContext();
    try {
      await signIn(page, newcomer.phone, newcomer.password);
      await page.getByText('Step 1 of 2').waitFor();
      await page.getByRole('heading', { name: 'Loan Summary' }).waitFor();
      findings.push(...(await audit(page, '/loan/application', 'step1')));
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL('**/loan/info');
      await page.getByText('Step 2 of 2').waitFor();
      for (const name of ['identity', 'basic', 'bank', 'signature']) {
        const control = page.locator(`#section-${name} button[aria-expanded]`).first();
        if ((await control.getAttribute('aria-expanded')) !== 'true') await control.click();
      }
      await page.locator('[data-testid="signature-pad"][data-ready]').waitFor();
      findings.push(...(await audit(page, '/loan/info', 'step2')));

      await signIn(page, withdrawing.phone, withdrawing.password);
      await open(page, '/wallet', page.getByTestId('disbursement'));
      findings.push(...(await audit(page, '/wallet', 'wallet')));
      // The re-disclosure before a code is sent: the plan now beside the plan after this withdrawal.
      await page.getByLabel('Amount (whole pesos)').fill('2000');
      await page.getByTestId('preview-monthly').waitFor();
      findings.push(...(await audit(page, '/wallet (withdrawal preview)', 'wallet-preview')));
      await open(page, '/account', page.getByTestId('credit-rating'));
      findings.push(...(await audit(page, '/account', 'account')));
      // The borrower's own data: documents, the download, consents and closing the account.
      for (const section of ['My documents', 'Download my data', 'Privacy and consent', 'Account closure']) {
        await page.getByRole('button', { name: section }).click();
      }
      await page.getByRole('img', { name: 'ID (front)' }).waitFor();
      await page.getByText('Agreed when signing up', { exact: false }).waitFor();
      findings.push(...(await audit(page, '/account (own data)', 'account-privacy')));
      await page.getByRole('button', { name: 'Close my account' }).click();
      await page.getByRole('dialog', { name: 'Close your account?' }).waitFor();
      findings.push(...(await audit(page, 'Close account dialog', 'account-close', false)));
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Complaints' }).click();
      await page.getByText('Thank you, we are checking it with the bank.').waitFor();
      findings.push(...(await audit(page, '/account (complaints)', 'account-complaints')));

      // New terms to accept with a code: the terms now beside the proposed ones.
      await signIn(page, reviewing.phone, reviewing.password);
      await open(page, '/wallet', page.getByRole('region', { name: 'New loan terms to review' }));
      findings.push(...(await audit(page, '/wallet (new terms to accept)', 'wallet-terms')));
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('staff sign-in: the Security page, the authenticator set-up and the second-factor step', async () => {
    // An officer (two-step sign-in is optional for officers) enrols from the Security page.
    const officer = await staffMember('officer');
    const { context, page } = await newContext();
    try {
      const findings: string[] = [];
      await logInInBrowser(page, officer.username, officer.password);
      await page.waitForURL('**/admin/home');
      await open(page, '/admin/security', page.getByRole('button', { name: 'Set up authenticator app' }));
      findings.push(...(await audit(page, '/admin/security', 'staff-security')));
      await enrolTotpInBrowser(page, {
        onQrCode: async () => {
          findings.push(...(await audit(page, '/admin/security (QR code)', 'staff-totp-qr')));
        },
        onRecoveryCodes: async () => {
          findings.push(...(await audit(page, '/admin/security (recovery codes)', 'staff-recovery')));
        },
      });
      await page.getByText('Recovery codes left: 10').waitFor();
      findings.push(...(await audit(page, '/admin/security (enrolled)', 'staff-security-on')));
      await page.getByRole('button', { name: 'Log out' }).first().click();
      await page.waitForURL((url) => url.pathname === '/login');
      await logInInBrowser(page, officer.username, officer.password);
      await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
      findings.push(...(await audit(page, 'second-factor step', 'staff-second-factor')));
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('back office: every screen, View Profile and a reason dialog', async () => {
    const { context, page } = await newContext();
    try {
      const findings: string[] = [];
      await logInInBrowser(page, admin.username, admin.password);
      await page.waitForURL('**/admin/home');
      await loadedCard(page, 'totalLoans').waitFor();
      findings.push(...(await audit(page, '/admin/home', 'staff-home')));
      for (const path of [
        '/admin/users',
        '/admin/approved',
        '/admin/servicing',
        '/admin/disbursements',
        '/admin/unapplied',
        '/admin/overdue',
        '/admin/repayments',
        '/admin/audit',
        '/admin/account-closures',
        '/admin/complaints',
        '/admin/pending',
      ]) {
        await open(page, path, listShown(page));
        findings.push(...(await audit(page, path, `staff-${path.split('/')[2]}`)));
      }

      // Still on Pending: a borrower's profile, then the reason asked for a rejection.
      const firstActions = page.getByRole('button', { name: /^Actions for / }).first();
      await pickRowAction(page, firstActions, 'View Profile');
      const profile = page.getByRole('dialog');
      await profile.getByText('Sari-Sari Store').waitFor();
      findings.push(...(await audit(page, 'View Profile dialog', 'staff-profile', false)));
      await page.keyboard.press('Escape');
      await profile.waitFor({ state: 'hidden' });
      await pickRowAction(page, firstActions, 'Reject');
      const reject = page.getByRole('dialog', { name: 'Reject Loan' });
      await reject.waitFor();
      await reject.getByRole('button', { name: 'Reject' }).click();
      await reject.getByText('A reason is required.').waitFor();
      findings.push(...(await audit(page, 'Reject Loan dialog (reason missing)', 'staff-reject', false)));
      await page.keyboard.press('Escape');
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('loan products: step 1 with a choice, the products list, a product and its form (with errors)', async () => {
    // A second product for this run only (retired again at the end): step 1 then offers a choice.
    const created = await admin.api.request<{ id: string; current: { version: number } }>(
      'POST',
      '/api/staff/products',
      {
        code: 'a11y-run',
        terms: salaryLoanTerms,
      },
    );
    expectStatus(created, 201, 'create product');
    const findings: string[] = [];
    try {
      const { context, page } = await newContext();
      try {
        await signIn(page, newcomer.phone, newcomer.password);
        const choice = page.getByRole('group', { name: 'Loan product' });
        await choice.getByRole('radio', { name: /^Salary loan/ }).check();
        await page.getByText('after repaying loans', { exact: false }).waitFor();
        findings.push(...(await audit(page, '/loan/application (product choice)', 'step1-products')));

        await signIn(page, admin.username, admin.password);
        await page.waitForURL('**/admin/home');
        // Each run's product is named alike (earlier runs' are retired, still listed).
        await open(
          page,
          '/admin/products',
          page.getByRole('table', { name: 'Loan Products' }).getByText('Salary loan'),
        );
        findings.push(...(await audit(page, '/admin/products', 'staff-products')));
        await open(
          page,
          `/admin/products/${created.body.id}`,
          page.getByRole('heading', { name: 'Version history' }),
        );
        findings.push(...(await audit(page, '/admin/products/:id', 'staff-product')));
        const create = page.getByRole('button', { name: 'Create product' });
        await open(page, '/admin/products/new', create);
        await fresh(page, create).click();
        await page.getByText('Please correct the highlighted fields.').waitFor();
        findings.push(...(await audit(page, '/admin/products/new (errors)', 'staff-product-new')));
      } finally {
        await context.close();
      }
    } finally {
      expectStatus(
        await admin.api.request('POST', `/api/staff/products/${created.body.id}/retire`, {
          basedOnVersion: created.body.current.version,
          reason: 'Accessibility run over',
        }),
        200,
        'retire product',
      );
    }
    expect(findings).toEqual([]);
  });

  it('back office: a complaint with its thread and the reply box', async () => {
    const { context, page } = await newContext();
    try {
      await logInInBrowser(page, admin.username, admin.password);
      await page.waitForURL('**/admin/home');
      await open(page, '/admin/complaints', page.getByRole('button', { name: /^Actions for / }));
      await fresh(page, page.getByRole('button', { name: /^Actions for / }))
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'View and reply' }).click();
      await page.getByRole('dialog').getByText('Thank you, we are checking it with the bank.').waitFor();
      expect(await audit(page, 'Complaint dialog', 'staff-complaint', false)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('back office: a loan page with its ledger, Record repayment and Reverse', async () => {
    const { context, page } = await newContext();
    try {
      const findings: string[] = [];
      await logInInBrowser(page, admin.username, admin.password);
      await page.waitForURL('**/admin/home');
      // Reached from the Repayments list by its loan number.
      await open(page, '/admin/repayments', page.getByRole('link', { name: repaying.loanNumber }));
      await page.getByRole('link', { name: repaying.loanNumber }).first().click();
      await page.waitForURL(`**/admin/loans/${repaying.applicationId}`);
      await page.getByRole('table', { name: 'Repayments received' }).waitFor();
      await page.getByText('Entered on the wrong loan').waitFor();
      findings.push(...(await audit(page, '/admin/loans/:id', 'staff-loan')));

      await page.getByRole('button', { name: 'Record repayment' }).click();
      const record = page.getByRole('dialog', { name: 'Record Repayment' });
      await record.getByRole('button', { name: 'Record' }).click();
      await record.getByText('A transfer reference is required.').waitFor();
      findings.push(
        ...(await audit(page, 'Record Repayment dialog (fields missing)', 'staff-record', false)),
      );
      await page.keyboard.press('Escape');
      await record.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Actions for GCASH-REF-1001' }).click();
      await page.getByRole('menuitem', { name: 'Reverse' }).click();
      const reverse = page.getByRole('dialog', { name: 'Reverse Repayment' });
      await reverse.getByRole('button', { name: 'Reverse' }).click();
      await reverse.getByText('A reason is required.').waitFor();
      findings.push(...(await audit(page, 'Reverse Repayment dialog', 'staff-reverse', false)));
      await page.keyboard.press('Escape');
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

// Last, as it restarts the server with a new privacy notice: every borrower is asked again from here on.
describe('accessibility: the re-consent screen', () => {
  it('passes at phone and desktop width, light and dark', async () => {
    await runningServer().restart({ PRIVACY_NOTICE_VERSION: 'a11y-2' });
    const { context, page } = await newContext();
    try {
      await logInInBrowser(page, newcomer.phone, newcomer.password);
      await page.getByRole('heading', { name: 'Our privacy notice has changed' }).waitFor();
      await page.getByText('Version a11y-2').waitFor();
      expect(await audit(page, 're-consent', 'reconsent')).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
