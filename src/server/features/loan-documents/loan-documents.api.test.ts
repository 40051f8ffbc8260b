import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPdfDownload } from '../../test-support/api-assertions';
import { applicationFields } from '../../test-support/application-form';
import { jpegWithGps, type MultipartFile, multipartBody, signaturePng } from '../../test-support/images';
import { type PdfReader, pdfReader } from '../../test-support/pdf-text';
import { type Agent, type ApiResponse, createTestApp, type TestApp } from '../../test-support/test-app';
import { loanDocumentTexts } from './render-loan-documents';

/**
 * The documents a borrower keeps (issue #14): the disclosure statement before applying and as signed, and the
 * signed loan agreement with the drawn signature, signing time and the SHA-256 of the terms. Both are made
 * again from stored data, byte for byte. Text is read back with poppler's pdftotext.
 */
let t: TestApp;
let officer: Agent;
let pdf: PdfReader;
let photo: Buffer;
let signature: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  officer = await t.signInStaff('officer');
  pdf = await pdfReader('docs');
  [photo, signature] = await Promise.all([jpegWithGps(200, 150), signaturePng()]);
});
afterAll(async () => {
  await t.close();
  await pdf.close();
});

const pdfText = (response: ApiResponse) => pdf.text(response.rawPayload);
const pdfImages = (response: ApiResponse) => pdf.images(response.rawPayload);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A borrower who applied through the real route (drawn signature and all). */
async function applied(fullName = 'Maria Santos') {
  const b = await t.signUpBorrower();
  const agent = await t.loginAs(b.phone, b.password);
  const quote = await agent.post('/api/applications/quote', { amount: 100000, termMonths: 6 });
  const files: MultipartFile[] = [
    { name: 'idFront', filename: 'f.jpg', contentType: 'image/jpeg', data: photo },
    { name: 'idBack', filename: 'b.jpg', contentType: 'image/jpeg', data: photo },
    { name: 'selfie', filename: 's.jpg', contentType: 'image/jpeg', data: photo },
    { name: 'signature', filename: 'sig.png', contentType: 'image/png', data: signature },
  ];
  const { payload, contentType } = multipartBody(
    applicationFields(b.phone, { termMonths: '6', fullName, disclosureSha256: quote.body.disclosureSha256 }),
    files,
  );
  const submitted = await agent.request('POST', '/api/applications', {
    raw: payload,
    headers: { 'content-type': contentType },
  });
  expect(submitted.status, submitted.text).toBe(201);
  return {
    agent,
    id: submitted.body.id as string,
    loanNumber: submitted.body.loanNumber as string,
    hash: quote.body.disclosureSha256 as string,
  };
}

describe('the disclosure statement before applying', () => {
  it('has the sections of the Philippine form for the amount and term chosen', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    const response = await agent.get('/api/applications/disclosure.pdf?amount=100000&termMonths=6&lang=en');
    expectPdfDownload(response, 'disclosure-100000-6m.pdf');
    const text = await pdfText(response);
    expect(text).toContain('Disclosure statement on loan/credit transaction');
    expect(text).toMatch(/1\. Loan granted \(amount to be financed\)\s+₱100,000\.00/);
    // ₱17,852.58 a month for 5 months and ₱17,852.60 last (its interest is 2 % of its own balance, rounded
    // once, decision 035): ₱107,115.50 in all, ₱7,115.50 of interest, no fees.
    expect(text).toMatch(/Total finance charges\s+₱7,115\.50/);
    expect(text).toMatch(/3\. Net proceeds of loan.*\s+₱100,000\.00/);
    expect(text).toContain('Effective interest rate (EIR): 26.82% a year');
    expect(text).toMatch(/Total instalment payments\s+₱107,115\.50/);
    expect(text).toContain('6. Additional charges if payments are late');
    expect(text).toContain('right to demand a copy');
    expect(text).toContain('Not yet applied');
  });

  it('is the same file every time for the same figures, and refuses figures outside the product', async () => {
    const b = await t.signUpBorrower();
    const agent = await t.loginAs(b.phone, b.password);
    const url = '/api/applications/disclosure.pdf?amount=50000&termMonths=12&lang=km';
    const [first, second] = [await agent.get(url), await agent.get(url)];
    expectPdfDownload(first, 'disclosure-50000-12m.pdf');
    expect(sha256(first.rawPayload)).toBe(sha256(second.rawPayload));
    const bad = await agent.get('/api/applications/disclosure.pdf?amount=12345&termMonths=6');
    expect(bad.status).toBe(400);
    expect((await agent.get('/api/applications/disclosure.pdf?amount=100000&termMonths=7')).status).toBe(400);
    expect((await officer.get('/api/applications/disclosure.pdf?amount=100000&termMonths=6')).status).toBe(
      403,
    );
  });
});

describe('the documents of a signed application', () => {
  it('gives the borrower the disclosure they signed and the agreement with signature, time and hash', async () => {
    const { agent, loanNumber, hash } = await applied();
    const disclosure = await agent.get('/api/wallet/disclosure.pdf?lang=en');
    expectPdfDownload(disclosure, `disclosure-${loanNumber}.pdf`);
    const disclosureText = await pdfText(disclosure);
    expect(disclosureText).toContain(loanNumber);
    expect(disclosureText).toContain('Maria Santos');

    const signed = await agent.get('/api/wallet/agreement.pdf?lang=en');
    expectPdfDownload(signed, `loan-agreement-${loanNumber}.pdf`);
    const text = await pdfText(signed);
    expect(text).toContain('Loan agreement');
    expect(text).toContain('N01-23-456789');
    expect(text).toMatch(/Signed on .+ at \d{2}:\d{2} \(Asia\/Manila\)/);
    expect(text.replace(/\s/g, '')).toContain(hash);
    expect(text.replace(/\s+/g, ' ')).toContain('Securities and Exchange Commission (SEC) Philippines');
    // The drawn signature is in it, as an image.
    expect(await pdfImages(signed)).toMatch(/\n\s*1\s+\d+\s+image/);
  });

  it('regenerates both from stored data identically (same SHA-256), in every language', async () => {
    const { agent, id } = await applied('Ana Reyes');
    for (const lang of ['en', 'zh', 'km', 'fil']) {
      for (const path of [
        `/api/wallet/agreement.pdf?lang=${lang}`,
        `/api/wallet/disclosure.pdf?lang=${lang}`,
      ]) {
        const [first, second] = [await agent.get(path), await agent.get(path)];
        expect(first.status, first.text.slice(0, 200)).toBe(200);
        expect(sha256(first.rawPayload), path).toBe(sha256(second.rawPayload));
      }
    }
    // Staff get the very same agreement.
    const own = await agent.get('/api/wallet/agreement.pdf?lang=fil');
    const staff = await officer.get(`/api/staff/applications/${id}/agreement.pdf?lang=fil`);
    expect(staff.status).toBe(200);
    expect(sha256(staff.rawPayload)).toBe(sha256(own.rawPayload));
    expect(await pdfText(staff)).toContain('Kasunduan sa pautang');
  });

  it('is the borrower own: another borrower gets theirs or none', async () => {
    await applied('First Person');
    const nobody = await t.signUpBorrower();
    const other = await t.loginAs(nobody.phone, nobody.password);
    expect((await other.get('/api/wallet/agreement.pdf')).body.error.code).toBe('LOAN_NOT_FOUND');
    expect((await other.get('/api/wallet/disclosure.pdf')).body.error.code).toBe('LOAN_NOT_FOUND');
  });
});

describe('document texts', () => {
  it('have the same keys in every language', () => {
    const keys = (tree: object, prefix = ''): string[] =>
      Object.entries(tree).flatMap(([k, v]) =>
        typeof v === 'object' && !Array.isArray(v) ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    const en = keys(loanDocumentTexts.en).sort();
    for (const lang of ['zh', 'km', 'fil'] as const) {
      expect(keys(loanDocumentTexts[lang]).sort()).toEqual(en);
      expect(loanDocumentTexts[lang].clauses).toHaveLength(loanDocumentTexts.en.clauses.length);
    }
  });
});
