import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { latestCode, uniquePhone } from './browser';
import { ApiSession } from './staff';

export interface NewBorrower {
  phone: string;
  password: string;
  /** Signed in through the API, for checks beside the browser. */
  api: ApiSession;
}

/**
 * A new borrower: signed up through the API with the code read from the development outbox, then (when
 * a page is given) logged in through the login form, landing on /loan/application.
 */
export async function signUpBorrower(page?: Page): Promise<NewBorrower> {
  const phone = uniquePhone();
  const password = 'borrower pass 42';
  const api = new ApiSession();
  const sent = await api.request('POST', '/api/auth/signup/code', { phone });
  if (sent.status !== 200) throw new Error(`sending the sign-up code failed: ${JSON.stringify(sent.body)}`);
  const code = await latestCode(phone);
  const created = await api.request('POST', '/api/auth/signup', {
    phone,
    password,
    confirmPassword: password,
    code,
  });
  if (created.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(created.body)}`);
  await api.login(phone, password);
  if (page) await logInInBrowser(page, phone, password);
  return { phone, password, api };
}

export async function logInInBrowser(page: Page, phone: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Phone number or username').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/loan/application');
}

/** Real, small picture files for the application form, written to a fresh temp folder. */
export async function applicationPictures() {
  const dir = mkdtempSync(join(tmpdir(), 'hiram-pictures-'));
  const card = (tint: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="#f4f1ea"/><rect x="16" y="16" width="608" height="368" rx="24" fill="${tint}"/><rect x="48" y="90" width="170" height="220" rx="12" fill="#fff"/><rect x="250" y="110" width="320" height="22" rx="6" fill="#fff"/><rect x="250" y="160" width="260" height="18" rx="6" fill="#fff"/></svg>`,
    );
  const files = {
    idFront: join(dir, 'id-front.jpg'),
    idBack: join(dir, 'id-back.png'),
    selfie: join(dir, 'selfie.jpg'),
    notAPicture: join(dir, 'statement.jpg'),
  };
  await sharp(card('#3b6ea5')).jpeg({ quality: 80 }).toFile(files.idFront);
  await sharp(card('#6b8f71')).png().toFile(files.idBack);
  await sharp({ create: { width: 480, height: 640, channels: 3, background: '#c9a27e' } })
    .jpeg()
    .toFile(files.selfie);
  // A PDF dressed up as a JPEG: the form must refuse it by its bytes.
  writeFileSync(files.notAPicture, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n');
  return files;
}
