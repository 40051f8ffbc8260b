import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { ApiSession, expectStatus } from './api';
import { latestCode, uniquePhone } from './browser';
import { approve } from './staff';

/**
 * Borrowers for end-to-end tests, set up through the real API: sign up with the code from the
 * development outbox, apply with real pictures and a signature bound to the quoted disclosure, and read
 * back what the borrower sees.
 */
export interface Borrower {
  phone: string;
  password: string;
  /** Signed in through the API, for set-up and checks beside the browser. */
  api: ApiSession;
}

/** A new borrower, signed up and signed in through the API; also through the login form when given a page. */
export async function signUpBorrower(page?: Page): Promise<Borrower> {
  const phone = uniquePhone();
  const password = 'borrower pass 42';
  const api = new ApiSession();
  expectStatus(await api.request('POST', '/api/auth/signup/code', { phone }), 200, 'send sign-up code');
  const code = await latestCode(phone);
  // As the sign-up page does: agree to the privacy notice in force (RA 10173), by its version.
  const privacyNoticeVersion = await currentNoticeVersion();
  expectStatus(
    await api.request('POST', '/api/auth/signup', {
      phone,
      password,
      confirmPassword: password,
      code,
      privacyNoticeVersion,
    }),
    201,
    'sign up',
  );
  await api.login(phone, password);
  if (page) await logInInBrowser(page, phone, password);
  return { phone, password, api };
}

/** The version of the privacy notice the server has in force (GET /api/privacy/notice). */
export async function currentNoticeVersion(): Promise<string> {
  const notice = await new ApiSession().request<{ version: string }>('GET', '/api/privacy/notice');
  expectStatus(notice, 200, 'privacy notice');
  return notice.body.version;
}

/** Logs in through the real login page and waits until the app has left /login. */
export async function logInInBrowser(page: Page, identifier: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Phone number or username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** An ID-card-like picture (coloured card, photo box, text lines) of the given tint. */
function idCard(tint: string, label: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" fill="#f4f1ea"/>
    <rect x="16" y="16" width="608" height="368" rx="24" fill="${tint}"/>
    <rect x="48" y="90" width="170" height="220" rx="12" fill="#ffffff" opacity="0.85"/>
    <circle cx="133" cy="170" r="46" fill="#8a7f72"/>
    <rect x="78" y="230" width="110" height="70" rx="30" fill="#8a7f72"/>
    <rect x="250" y="100" width="320" height="22" rx="6" fill="#ffffff" opacity="0.9"/>
    <rect x="250" y="150" width="260" height="18" rx="6" fill="#ffffff" opacity="0.7"/>
    <rect x="250" y="195" width="290" height="18" rx="6" fill="#ffffff" opacity="0.7"/>
    <text x="48" y="64" font-family="sans-serif" font-size="28" font-weight="700" fill="#ffffff">${label}</text>
  </svg>`;
  return sharp(Buffer.from(svg));
}

/** The application's pictures: JPEG and PNG as phones send them, and a signature PNG as the pad does. */
async function pictureFiles(tint = '#2f7f6f') {
  const signature = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="150">
    <path d="M30 110 C 80 20, 120 20, 140 100 S 210 140, 240 60 S 320 20, 350 110 S 440 130, 470 70 S 540 40, 570 90"
      stroke="#1a1a2e" stroke-width="4" fill="none" stroke-linecap="round"/>
  </svg>`;
  return {
    idFront: { data: await idCard(tint, 'ID FRONT').jpeg({ quality: 85 }).toBuffer(), name: 'id-front.jpg' },
    idBack: { data: await idCard('#5b6b8c', 'ID BACK').png().toBuffer(), name: 'id-back.png' },
    selfie: { data: await idCard('#b07a4f', 'SELFIE').jpeg({ quality: 85 }).toBuffer(), name: 'selfie.jpg' },
    signature: { data: await sharp(Buffer.from(signature)).png().toBuffer(), name: 'signature.png' },
  };
}

/** Picture files on disk for the browser's file pickers, and a PDF named .jpg that must be refused. */
export async function applicationPictures() {
  const dir = mkdtempSync(join(tmpdir(), 'hiram-pictures-'));
  const files = await pictureFiles('#3b6ea5');
  const path = (name: string) => join(dir, name);
  for (const file of [files.idFront, files.idBack, files.selfie]) writeFileSync(path(file.name), file.data);
  writeFileSync(path('statement.jpg'), '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n');
  return {
    idFront: path(files.idFront.name),
    idBack: path(files.idBack.name),
    selfie: path(files.selfie.name),
    notAPicture: path('statement.jpg'),
  };
}

/** The borrower's view of an application (GET /api/applications/mine, POST /api/applications). */
export interface MyApplication {
  id: string;
  loanNumber: string;
  status: string;
  rejectReason: string | null;
  statusMessage: string | null;
  amountMinor: number;
  approvedAmountMinor: number | null;
  termMonths: number;
  creditScore: number | null;
  submittedAt: string;
}

export interface ApplicationInput {
  fullName?: string;
  amount?: number;
  termMonths?: number;
  bankName?: string;
  /** Defaults to the borrower's phone followed by "01". */
  accountNumber?: string;
  /** The colour of the front ID picture, to tell applications apart when looking at screenshots. */
  tint?: string;
  /** The product version applied under (GET /api/products); may be left out while one product is offered. */
  productVersionId?: string;
}

/** Quotes the terms, then submits a complete application (multipart) signed for exactly those terms. */
export async function submitApplication(
  borrower: Borrower,
  input: ApplicationInput = {},
): Promise<MyApplication> {
  const amount = input.amount ?? 100_000;
  const termMonths = input.termMonths ?? 12;
  const version: Record<string, string> = input.productVersionId
    ? { productVersionId: input.productVersionId }
    : {};
  const quote = await borrower.api.request<{ disclosureSha256: string }>('POST', '/api/applications/quote', {
    amount,
    termMonths,
    ...version,
  });
  expectStatus(quote, 200, 'quote');
  const fields: Record<string, string> = {
    phone: borrower.phone,
    amount: String(amount),
    termMonths: String(termMonths),
    ...version,
    disclosureSha256: quote.body.disclosureSha256,
    fullName: input.fullName ?? 'Maria Santos',
    idNumber: `ID-${borrower.phone.slice(-6)}`,
    companyName: 'Santos Sari-Sari Store',
    position: 'Owner',
    income: '45000',
    monthlyExpense: '18000',
    address: '12 Rizal Street, Quezon City',
    email: '',
    contactName: 'Jose Santos',
    contactPhone: '09181234567',
    contactAddress: '14 Rizal Street, Quezon City',
    contactRelation: 'sibling',
    bankName: input.bankName ?? 'GCash',
    accountNumber: input.accountNumber ?? `${borrower.phone}01`,
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(await pictureFiles(input.tint))) {
    const type = file.name.endsWith('.png') ? 'image/png' : 'image/jpeg';
    form.append(name, new Blob([new Uint8Array(file.data)], { type }), file.name);
  }
  const submitted = await borrower.api.request<MyApplication>('POST', '/api/applications', form);
  expectStatus(submitted, 201, 'submit application');
  return submitted.body;
}

/** A new borrower with a submitted (pending) application. */
export async function borrowerWithApplication(input: ApplicationInput = {}) {
  const borrower = await signUpBorrower();
  const application = await submitApplication(borrower, input);
  return { ...borrower, application };
}

/** A borrower whose application an officer approved: the usual starting point of wallet tests. */
export async function borrowerWithApprovedLoan(
  officer: ApiSession,
  input: ApplicationInput & { creditScore?: number } = {},
) {
  const { application, ...borrower } = await borrowerWithApplication(input);
  const { loanNumber } = await approve(officer, application.id, input.creditScore ?? 500);
  return { ...borrower, applicationId: application.id, loanNumber };
}

/** GET /api/applications/mine: the borrower's latest application as they see it. */
export async function myApplication(borrower: Borrower): Promise<MyApplication | null> {
  const response = await borrower.api.request<{ application: MyApplication | null }>(
    'GET',
    '/api/applications/mine',
  );
  expectStatus(response, 200, 'my application');
  return response.body.application;
}

/** The borrower's newest disbursement, as their wallet shows it. */
export async function latestDisbursement(borrower: Borrower) {
  const wallet = await borrower.api.request<{
    disbursements: { id: string; status: string; amountMinor: number }[];
  }>('GET', '/api/wallet');
  expectStatus(wallet, 200, 'wallet');
  const newest = wallet.body.disbursements[0];
  if (!newest) throw new Error('The borrower has no disbursement');
  return newest;
}

/**
 * A withdrawal through the API as the wallet makes it: the preview the borrower reads (re-disclosure), a
 * code bound to those figures, then the withdrawal with that code. Answers the new disbursement's id.
 */
export async function withdrawThroughApi(borrower: Borrower, amount: number): Promise<string> {
  const preview = await borrower.api.request<{ planDigest: string }>(
    'POST',
    '/api/wallet/withdrawal-preview',
    {
      amount,
    },
  );
  expectStatus(preview, 200, 'withdrawal preview');
  expectStatus(
    await borrower.api.request('POST', '/api/wallet/withdrawal-code', {
      amount,
      planDigest: preview.body.planDigest,
    }),
    200,
    'withdrawal code',
  );
  const code = await latestCode(borrower.phone);
  const withdrawn = await borrower.api.request<{ disbursement: { id: string } }>(
    'POST',
    '/api/wallet/withdrawals',
    {
      amount,
      code,
      idempotencyKey: randomUUID(),
    },
  );
  expectStatus(withdrawn, 201, 'withdraw');
  return withdrawn.body.disbursement.id;
}

/**
 * The borrower accepts the new terms staff proposed, through the API as the wallet page does: a code to
 * their phone (read from the development outbox), then the code (docs/decisions/018).
 */
export async function acceptTermsThroughApi(borrower: Borrower): Promise<void> {
  const terms = await borrower.api.request<{ proposed: { id: string } | null }>('GET', '/api/wallet/terms');
  const id = terms.body.proposed?.id;
  if (!id) throw new Error('no proposed terms for this borrower');
  expectStatus(await borrower.api.request('POST', `/api/wallet/terms-changes/${id}/code`), 200, 'terms code');
  const code = await latestCode(borrower.phone, 'terms_change');
  expectStatus(
    await borrower.api.request('POST', `/api/wallet/terms-changes/${id}/accept`, { code }),
    200,
    'accept terms',
  );
}
