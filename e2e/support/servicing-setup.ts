import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { baseUrl, latestCode, uniquePhone } from './browser';
import { ApiSession, createStaff } from './staff';

/**
 * API set-up for the servicing, user and audit flows: a borrower who signs up (code from the development
 * outbox), applies with real pictures bound to the quoted disclosure, and is approved by an officer.
 */

/** A cookie + CSRF client that also posts multipart forms (ApiSession speaks JSON only). */
export class FormClient {
  private cookie = '';
  private csrf: string | null = null;

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${baseUrl()}${path}`, { method, headers, body: payload });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const parsed = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (parsed && typeof parsed === 'object' && 'csrfToken' in parsed) this.csrf = parsed.csrfToken;
    return { status: response.status, body: parsed as T };
  }
}

function expectStatus(response: { status: number; body: unknown }, status: number, what: string) {
  if (response.status !== status)
    throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
}

export interface ServicedBorrower {
  phone: string;
  password: string;
  fullName: string;
  api: FormClient;
}

export async function signUpBorrower(
  fullName: string,
  password = 'borrower pass 42',
): Promise<ServicedBorrower> {
  const phone = uniquePhone();
  const api = new FormClient();
  expectStatus(await api.request('POST', '/api/auth/signup/code', { phone }), 200, 'send sign-up code');
  const code = await latestCode(phone);
  expectStatus(
    await api.request('POST', '/api/auth/signup', { phone, password, confirmPassword: password, code }),
    201,
    'sign up',
  );
  expectStatus(await api.request('POST', '/api/auth/login', { identifier: phone, password }), 200, 'log in');
  return { phone, password, fullName, api };
}

async function pictures() {
  const photo = (r: number, g: number, b: number) =>
    sharp({ create: { width: 640, height: 400, channels: 3, background: { r, g, b } } });
  const signature = sharp(
    Buffer.from(
      '<svg width="600" height="150" xmlns="http://www.w3.org/2000/svg"><path d="M20 110 C 120 20, 220 140, 320 50 S 520 110, 580 70" stroke="#111" stroke-width="4" fill="none"/></svg>',
    ),
  );
  return {
    idFront: { data: await photo(40, 120, 200).jpeg().toBuffer(), name: 'front.jpg', type: 'image/jpeg' },
    idBack: { data: await photo(200, 170, 90).png().toBuffer(), name: 'back.png', type: 'image/png' },
    selfie: { data: await photo(90, 170, 120).jpeg().toBuffer(), name: 'selfie.jpg', type: 'image/jpeg' },
    signature: { data: await signature.png().toBuffer(), name: 'signature.png', type: 'image/png' },
  };
}

/** Quote, then the multipart application signed for exactly those terms. Returns the application id. */
export async function applyForLoan(
  borrower: ServicedBorrower,
  input: { amount?: number; termMonths?: number; bankName?: string; accountNumber?: string } = {},
): Promise<string> {
  const amount = input.amount ?? 100_000;
  const termMonths = input.termMonths ?? 12;
  const quote = await borrower.api.request<{ disclosureSha256: string }>('POST', '/api/applications/quote', {
    amount,
    termMonths,
  });
  expectStatus(quote, 200, 'quote');
  const fields: Record<string, string> = {
    phone: borrower.phone,
    amount: String(amount),
    termMonths: String(termMonths),
    disclosureSha256: quote.body.disclosureSha256,
    fullName: borrower.fullName,
    idNumber: 'N01-23-456789',
    companyName: 'Reyes Bakery',
    position: 'Owner',
    income: '42000',
    monthlyExpense: '15000',
    address: '8 Rizal Ave, Manila',
    email: '',
    contactName: 'Luz Reyes',
    contactPhone: '09181234567',
    contactAddress: '8 Rizal Ave, Manila',
    contactRelation: 'parent',
    bankName: input.bankName ?? 'GCash',
    accountNumber: input.accountNumber ?? '09171234567',
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(await pictures()))
    form.append(name, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const submitted = await borrower.api.request<{ id: string }>('POST', '/api/applications', form);
  expectStatus(submitted, 201, 'submit application');
  return submitted.body.id;
}

/** A staff member with their own password, signed in through the API too. */
export async function staffMember(role: 'officer' | 'finance' | 'admin') {
  const credentials = await createStaff(role);
  const api = new ApiSession();
  await api.login(credentials.username, credentials.password);
  return { ...credentials, api };
}

export async function approveLoan(officer: ApiSession, applicationId: string, creditScore = 500) {
  const response = await officer.request('POST', `/api/staff/applications/${applicationId}/approve`, {
    creditScore,
  });
  expectStatus(response, 200, 'approve');
  return response.body as { loanNumber: string };
}

/** Logs in through the real login page; waits until the app has left /login. */
export async function logInInBrowser(page: Page, identifier: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Phone number or username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}
