import sharp from 'sharp';
import { baseUrl, latestCode, uniquePhone } from './browser';

/**
 * Borrowers driven through the real API for back-office tests: sign up with the development outbox code,
 * log in, quote, and submit an application (multipart, with JPEG/PNG pictures made by sharp).
 */
export class BorrowerApi {
  private cookie = '';
  private csrf: string | null = null;

  constructor(
    readonly phone: string,
    readonly password: string,
  ) {}

  private headers(extra: Record<string, string> = {}, write = false): Record<string, string> {
    const headers: Record<string, string> = { ...extra };
    if (this.cookie) headers.cookie = this.cookie;
    if (write && this.csrf) headers['x-csrf-token'] = this.csrf;
    return headers;
  }

  private async read<T>(response: Response): Promise<{ status: number; body: T }> {
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const body = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (body && typeof body === 'object' && 'csrfToken' in body && typeof body.csrfToken === 'string') {
      this.csrf = body.csrfToken;
    }
    return { status: response.status, body: body as T };
  }

  async json<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const write = method !== 'GET';
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }, write),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return this.read<T>(response);
  }

  async multipart<T = unknown>(path: string, form: FormData): Promise<{ status: number; body: T }> {
    const response = await fetch(`${baseUrl()}${path}`, {
      method: 'POST',
      headers: this.headers({}, true),
      body: form,
    });
    return this.read<T>(response);
  }

  /** GET /api/applications/mine: the borrower's latest application as they see it. */
  async myApplication() {
    const response = await this.json<{ application: MyApplication | null; canApply: boolean }>(
      'GET',
      '/api/applications/mine',
    );
    if (response.status !== 200) throw new Error(`mine failed: ${JSON.stringify(response.body)}`);
    return response.body.application;
  }
}

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
}

/** A new borrower, signed up with the SMS code from the development outbox and logged in. */
export async function signUpBorrower(phone = uniquePhone()): Promise<BorrowerApi> {
  const password = 'borrower pass 123';
  const api = new BorrowerApi(phone, password);
  const code = await api.json('POST', '/api/auth/signup/code', { phone });
  if (code.status !== 200) throw new Error(`signup code failed: ${JSON.stringify(code.body)}`);
  const signup = await api.json('POST', '/api/auth/signup', {
    phone,
    password,
    confirmPassword: password,
    code: await latestCode(phone),
  });
  if (signup.status >= 300) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const login = await api.json('POST', '/api/auth/login', { identifier: phone, password });
  if (login.status !== 200) throw new Error(`borrower login failed: ${JSON.stringify(login.body)}`);
  return api;
}

/** An ID-card-like JPEG (coloured card, photo box, text lines) of the given tint. */
export function photoJpeg(tint: string, label: string): Promise<Buffer> {
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
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A transparent PNG with a pen stroke, as the signature pad would send. */
export function signaturePng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="150">
    <path d="M30 110 C 80 20, 120 20, 140 100 S 210 140, 240 60 S 320 20, 350 110 S 440 130, 470 70 S 540 40, 570 90"
      stroke="#1a1a2e" stroke-width="4" fill="none" stroke-linecap="round"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface ApplicationInput {
  fullName: string;
  amount?: number;
  termMonths?: number;
  tint?: string;
}

/** Quotes the terms and submits a complete application with pictures; returns the borrower's view of it. */
export async function submitApplication(api: BorrowerApi, input: ApplicationInput): Promise<MyApplication> {
  const amount = input.amount ?? 100_000;
  const termMonths = input.termMonths ?? 12;
  const quote = await api.json<{ disclosureSha256: string }>('POST', '/api/applications/quote', {
    amount,
    termMonths,
  });
  if (quote.status !== 200) throw new Error(`quote failed: ${JSON.stringify(quote.body)}`);

  const tint = input.tint ?? '#2f7f6f';
  const form = new FormData();
  const fields: Record<string, string> = {
    phone: api.phone,
    amount: String(amount),
    termMonths: String(termMonths),
    fullName: input.fullName,
    idNumber: `ID-${api.phone.slice(-6)}`,
    companyName: 'Sari-Sari Store',
    position: 'Owner',
    income: '45000',
    monthlyExpense: '18000',
    address: '12 Rizal Street, Quezon City',
    email: '',
    contactName: 'Maria Cruz',
    contactPhone: '09181234567',
    contactAddress: '14 Rizal Street, Quezon City',
    contactRelation: 'sibling',
    bankName: 'GCash',
    accountNumber: `${api.phone}01`,
    disclosureSha256: quote.body.disclosureSha256,
  };
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const file = (data: Buffer, type: string) => new Blob([new Uint8Array(data)], { type });
  form.set('idFront', file(await photoJpeg(tint, 'ID FRONT'), 'image/jpeg'), 'front.jpg');
  form.set('idBack', file(await photoJpeg('#5b6b8c', 'ID BACK'), 'image/jpeg'), 'back.jpg');
  form.set('selfie', file(await photoJpeg('#b07a4f', 'SELFIE'), 'image/jpeg'), 'selfie.jpg');
  form.set('signature', file(await signaturePng(), 'image/png'), 'signature.png');

  const submitted = await api.multipart<MyApplication>('/api/applications', form);
  if (submitted.status !== 201) throw new Error(`submit failed: ${JSON.stringify(submitted.body)}`);
  return submitted.body;
}

/** Sign up a borrower and submit an application in one go. */
export async function borrowerWithApplication(input: ApplicationInput) {
  const api = await signUpBorrower();
  const application = await submitApplication(api, input);
  return { api, application };
}
