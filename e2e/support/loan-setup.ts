import sharp from 'sharp';
import { baseUrl, latestCode, uniquePhone } from './browser';
import { ApiSession, createStaff } from './staff';

/**
 * Setting up loans through the real API for end-to-end tests: a borrower signs up and applies (with real
 * pictures and a signature, bound to the quoted disclosure), staff approve, and finance settles payouts.
 */

/** A signed-in API client that also sends multipart forms (ApiSession speaks JSON only). */
export class BorrowerApi {
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
    if (body instanceof FormData) {
      payload = body;
    } else if (body !== undefined) {
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
  if (response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export interface Borrower {
  phone: string;
  password: string;
  api: BorrowerApi;
}

/** A new borrower, signed up with a code from the development outbox, and signed in through the API. */
export async function signUpBorrower(password = 'borrower pass 42'): Promise<Borrower> {
  const phone = uniquePhone();
  const api = new BorrowerApi();
  expectStatus(await api.request('POST', '/api/auth/signup/code', { phone }), 200, 'send sign-up code');
  const code = await latestCode(phone);
  expectStatus(
    await api.request('POST', '/api/auth/signup', { phone, password, confirmPassword: password, code }),
    201,
    'sign up',
  );
  expectStatus(await api.request('POST', '/api/auth/login', { identifier: phone, password }), 200, 'log in');
  return { phone, password, api };
}

async function pictures() {
  const photo = (r: number, g: number, b: number) =>
    sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g, b } } });
  const signature = sharp(
    Buffer.from(
      '<svg width="600" height="150" xmlns="http://www.w3.org/2000/svg"><path d="M20 120 C 120 10, 220 140, 320 40 S 520 120, 580 60" stroke="#111" stroke-width="4" fill="none"/></svg>',
    ),
  );
  return {
    idFront: { data: await photo(40, 120, 200).jpeg().toBuffer(), name: 'front.jpg', type: 'image/jpeg' },
    idBack: { data: await photo(220, 180, 90).png().toBuffer(), name: 'back.png', type: 'image/png' },
    selfie: { data: await photo(90, 180, 120).jpeg().toBuffer(), name: 'selfie.jpg', type: 'image/jpeg' },
    signature: { data: await signature.png().toBuffer(), name: 'signature.png', type: 'image/png' },
  };
}

export interface ApplicationInput {
  amount?: number;
  termMonths?: number;
  fullName?: string;
  bankName?: string;
  accountNumber?: string;
}

/** Submits an application as the borrower (multipart), signed for the terms the server quoted. */
export async function submitApplication(borrower: Borrower, input: ApplicationInput = {}): Promise<string> {
  const amount = input.amount ?? 50_000;
  const termMonths = input.termMonths ?? 6;
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
    fullName: input.fullName ?? 'Maria Santos',
    idNumber: 'N01-23-456789',
    companyName: 'Santos Sari-Sari Store',
    position: 'Owner',
    income: '35000',
    monthlyExpense: '12000',
    address: '12 Mabini St, Quezon City',
    email: '',
    contactName: 'Jose Santos',
    contactPhone: '09181234567',
    contactAddress: '12 Mabini St, Quezon City',
    contactRelation: 'sibling',
    bankName: input.bankName ?? 'GCash',
    accountNumber: input.accountNumber ?? '09171234567',
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(await pictures())) {
    form.append(name, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  }
  const submitted = await borrower.api.request<{ id: string }>('POST', '/api/applications', form);
  expectStatus(submitted, 201, 'submit application');
  return submitted.body.id;
}

/** A staff member created by the admin and signed in through the API. */
export async function staffSession(role: 'officer' | 'finance' | 'admin'): Promise<ApiSession> {
  const { username, password } = await createStaff(role);
  const session = new ApiSession();
  await session.login(username, password);
  return session;
}

export async function approve(officer: ApiSession, applicationId: string, creditScore = 500) {
  const response = await officer.request('POST', `/api/staff/applications/${applicationId}/approve`, {
    creditScore,
  });
  expectStatus(response, 200, 'approve');
}

/** Puts an approved loan on hold (with the message the borrower sees) or releases it. */
export async function setHold(
  officer: ApiSession,
  applicationId: string,
  action: 'hold' | 'release',
  message = 'Please call our office to confirm your identity.',
) {
  const response = await officer.request('POST', `/api/staff/loans/${applicationId}/status`, {
    action,
    message: action === 'hold' ? message : '',
    reason: 'End-to-end test',
  });
  expectStatus(response, 200, `${action} loan`);
}

export async function markPaid(finance: ApiSession, disbursementId: string, reference: string) {
  const response = await finance.request('POST', `/api/staff/disbursements/${disbursementId}/paid`, {
    reference,
  });
  expectStatus(response, 200, 'mark paid');
}

export async function markFailed(finance: ApiSession, disbursementId: string, reason: string) {
  const response = await finance.request('POST', `/api/staff/disbursements/${disbursementId}/failed`, {
    reason,
  });
  expectStatus(response, 200, 'mark failed');
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

/** A borrower whose application an officer approved: the usual starting point of wallet tests. */
export async function borrowerWithApprovedLoan(
  officer: ApiSession,
  input: ApplicationInput & { creditScore?: number } = {},
) {
  const borrower = await signUpBorrower();
  const applicationId = await submitApplication(borrower, input);
  await approve(officer, applicationId, input.creditScore ?? 500);
  return { ...borrower, applicationId };
}
