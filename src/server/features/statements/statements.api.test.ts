import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn, writeIsoDate } from '../../../domain/date-text';
import { expectPdfDownload } from '../../test-support/api-assertions';
import { type PdfReader, pdfReader } from '../../test-support/pdf-text';
import { loanNumberOf, seedBorrowerWithApplication, seedPaidDisbursement } from '../../test-support/seed';
import { type Agent, type ApiResponse, createTestApp, type TestApp } from '../../test-support/test-app';

/**
 * The statement of account as a PDF (issue #10): the borrower's own, and any paid-out loan's for staff. The
 * text is read back with poppler's pdftotext (poppler-utils, installed by .ci/run), as a person would copy it.
 */
let t: TestApp;
let officer: Agent;
let finance: Agent;
let pdf: PdfReader;

beforeAll(async () => {
  t = await createTestApp();
  officer = await t.signInStaff('officer');
  finance = await t.signInStaff('finance');
  pdf = await pdfReader('statement');
});
afterAll(async () => {
  await t.close();
  await pdf.close();
});

const today = () => todayIn('Asia/Manila');
/** The PDF's text, page by page, in reading order. */
const pdfText = (response: ApiResponse) => pdf.text(response.rawPayload);

async function borrowerWithLoan(options: { paidOut?: boolean; fullName?: string } = {}) {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, {
    status: 'approved',
    fullName: options.fullName ?? 'Maria Dela Cruz',
  });
  if (options.paidOut !== false) await seedPaidDisbursement(t.db, id, { amountMinor: 10_000_000 });
  const loanNumber = await loanNumberOf(t.db, id);
  return { id, loanNumber, agent: await t.loginAs(b.phone, b.password) };
}

const expectPdf = (response: ApiResponse, loanNumber: string) =>
  expectPdfDownload(response, `statement-${loanNumber}-${today()}.pdf`);

describe('the borrower statement', () => {
  it('gives the borrower their own paid-out loan: terms, the payout and the payoff today', async () => {
    const { loanNumber, agent } = await borrowerWithLoan();
    const response = await agent.get('/api/wallet/statement.pdf?lang=en');
    expectPdf(response, loanNumber);
    const text = await pdfText(response);
    expect(text).toContain('Statement of account');
    expect(text).toContain(loanNumber);
    expect(text).toContain('Maria Dela Cruz');
    expect(text).toContain('Active, in repayment');
    expect(text).toMatch(/Loan paid out\s+₱100,000\.00/);
    // Nothing has accrued on the payout day: the payoff is the principal.
    expect(text).toMatch(/Amount that pays off the loan today.*₱100,000\.00/);
    expect(text).toContain('support@example.com');
    expect(text).toContain('Page 1 of 1');
    expect(text).not.toContain('Paid in full');
  });

  it('is "not found" before the payout, and for a borrower without a loan', async () => {
    const { agent } = await borrowerWithLoan({ paidOut: false });
    const response = await agent.get('/api/wallet/statement.pdf');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('LOAN_NOT_FOUND');
    const nobody = await t.signUpBorrower();
    const other = await t.loginAs(nobody.phone, nobody.password);
    expect((await other.get('/api/wallet/statement.pdf')).body.error.code).toBe('LOAN_NOT_FOUND');
  });

  it('is the borrower own: each borrower gets only their loan, staff cannot use the borrower route', async () => {
    const first = await borrowerWithLoan({ fullName: 'First Borrower' });
    const second = await borrowerWithLoan({ fullName: 'Second Borrower' });
    const text = await pdfText(await second.agent.get('/api/wallet/statement.pdf'));
    expect(text).toContain(second.loanNumber);
    expect(text).not.toContain(first.loanNumber);
    expect(text).not.toContain('First Borrower');
    const staff = await officer.get('/api/wallet/statement.pdf');
    expect(staff.status).toBe(403);
    expect((await t.agent().get('/api/wallet/statement.pdf')).status).toBe(401);
  });

  it('says a closed loan was paid in full, in the requested language', async () => {
    const { id, loanNumber, agent } = await borrowerWithLoan();
    const paid = await finance.post(`/api/staff/loans/${id}/repayments`, {
      amount: '100000',
      receivedOn: today(),
      channel: 'gcash',
      reference: `PAYOFF-${loanNumber}`,
    });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.loanStatus).toBe('closed');

    const en = await pdfText(await agent.get('/api/wallet/statement.pdf?lang=en'));
    expect(en).toContain(`Paid in full on ${writeIsoDate('en', today())}`);
    expect(en).toContain(`ref. PAYOFF-${loanNumber}`);
    expect(en).toMatch(/Balance on .*₱0\.00/);
    expect(en).not.toContain('Amount that pays off the loan today');

    const zh = await agent.get('/api/wallet/statement.pdf?lang=zh');
    expectPdf(zh, loanNumber);
    expect(await pdfText(zh)).toContain(`已于${writeIsoDate('zh', today())}全部还清`);
    const km = await agent.get('/api/wallet/statement.pdf?lang=km');
    expectPdf(km, loanNumber);
    expect(await pdfText(km)).toContain(loanNumber);
    const fil = await agent.get('/api/wallet/statement.pdf?lang=fil');
    expectPdf(fil, loanNumber);
    expect(await pdfText(fil)).toContain(`Bayad nang buo noong ${writeIsoDate('fil', today())}`);
  });

  it('refuses a language it does not have', async () => {
    const { agent } = await borrowerWithLoan();
    expect((await agent.get('/api/wallet/statement.pdf?lang=fr')).status).toBe(400);
  });
});

describe('the staff statement', () => {
  it('gives every staff role any paid-out loan, unaudited like the ledger it prints', async () => {
    const { id, loanNumber } = await borrowerWithLoan({ fullName: 'Staff View' });
    const before = await t.db.selectFrom('audit_events').select('id').where('loan_id', '=', id).execute();
    for (const agent of [officer, finance]) {
      const response = await agent.get(`/api/staff/loans/${id}/statement.pdf?lang=en`);
      expectPdf(response, loanNumber);
      expect(await pdfText(response)).toContain('Staff View');
    }
    const after = await t.db.selectFrom('audit_events').select('id').where('loan_id', '=', id).execute();
    expect(after).toHaveLength(before.length);
  });

  it('is "not found" for a loan not paid out, an unknown id, and refused to borrowers', async () => {
    const { id, agent } = await borrowerWithLoan({ paidOut: false });
    expect((await officer.get(`/api/staff/loans/${id}/statement.pdf`)).body.error.code).toBe(
      'LOAN_NOT_FOUND',
    );
    expect(
      (await officer.get('/api/staff/loans/00000000-0000-4000-8000-000000000000/statement.pdf')).status,
    ).toBe(404);
    expect((await officer.get('/api/staff/loans/not-a-uuid/statement.pdf')).status).toBe(404);
    expect((await agent.get(`/api/staff/loans/${id}/statement.pdf`)).status).toBe(403);
  });
});
