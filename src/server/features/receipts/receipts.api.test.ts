import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn, writeIsoDate } from '../../../domain/date-text';
import { expectPdfDownload } from '../../test-support/api-assertions';
import { type PdfReader, pdfReader } from '../../test-support/pdf-text';
import {
  loanNumberOf,
  seedBorrowerWithApplication,
  seedRequestedDisbursement,
} from '../../test-support/seed';
import { type Agent, type ApiResponse, createTestApp, type TestApp } from '../../test-support/test-app';

/**
 * Receipts (issue #32): a screen's data and a PDF for every payment received and every payout marked paid,
 * for the borrower (their own loans only: anyone else's is "not found") and for staff. The PDFs are read
 * back with pdftotext (poppler-utils), as a person would copy them.
 */
let t: TestApp;
let officer: Agent;
let finance: Agent;
let pdf: PdfReader;

beforeAll(async () => {
  t = await createTestApp();
  officer = await t.signInStaff('officer');
  finance = await t.signInStaff('finance');
  pdf = await pdfReader('receipt');
});
afterAll(async () => {
  await t.close();
  await pdf.close();
});

const today = () => todayIn('Asia/Manila');
async function pdfText(response: ApiResponse): Promise<string> {
  expectPdfDownload(response);
  return pdf.text(response.rawPayload);
}

/** A borrower with a ₱100,000 loan paid out today (₱1,500 fee taken from it) and a payment of ₱5,000. */
async function borrowerWithPayment(fullName = 'Ligaya Ramos') {
  const { borrower: b, id } = await seedBorrowerWithApplication(t, { status: 'approved', fullName });
  const payout = await t.db
    .insertInto('disbursements')
    .values({
      application_id: id,
      amount: 10_000_000,
      fee_minor: 150_000,
      bank_name: 'BPI',
      account_number: '001234567890',
      code_verified: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const paid = await finance.post(`/api/staff/disbursements/${payout.id}/paid`, {
    reference: 'BPI-PAYOUT-77',
  });
  expect(paid.status, paid.text).toBe(200);
  const payment = await finance.post(`/api/staff/loans/${id}/repayments`, {
    amount: '5000',
    receivedOn: today(),
    channel: 'gcash',
    reference: `GC-${b.phone}`,
  });
  expect(payment.status, payment.text).toBe(201);
  const loanNumber = await loanNumberOf(t.db, id);
  return {
    loanId: id,
    loanNumber,
    payoutId: payout.id,
    paymentId: payment.body.id as string,
    reference: `GC-${b.phone}`,
    agent: await t.loginAs(b.phone, b.password),
  };
}

describe('a payment receipt', () => {
  it('shows the borrower their payment: a stable number, the amount, and where every centavo went', async () => {
    const b = await borrowerWithPayment();
    const response = await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt`);
    expect(response.status, response.text).toBe(200);
    const hex = b.paymentId.replaceAll('-', '').slice(0, 8).toUpperCase();
    expect(response.body).toMatchObject({
      receiptNumber: `${b.loanNumber}-R${hex}`,
      repaymentId: b.paymentId,
      loanId: b.loanId,
      loanNumber: b.loanNumber,
      borrowerName: 'Ligaya Ramos',
      amountMinor: 500_000,
      receivedOn: today(),
      channel: 'gcash',
      channelName: 'GCash',
      reference: b.reference,
      reversal: null,
    });
    // Paid on the payout day: no interest yet, so all of it is principal paid ahead of the first instalment.
    const allocation = response.body.allocation;
    const parts = Object.values(allocation as Record<string, number>);
    expect(parts.reduce((sum, part) => sum + part, 0)).toBe(500_000);
    expect(allocation.lateChargesMinor).toBe(0);

    // A later payment, and the reversal of this one: its number stays.
    const later = await finance.post(`/api/staff/loans/${b.loanId}/repayments`, {
      amount: '100',
      receivedOn: today(),
      channel: 'cash',
      reference: `CASH-${b.paymentId.slice(0, 6)}`,
    });
    expect(later.status).toBe(201);
    const reversed = await finance.post(`/api/staff/repayments/${b.paymentId}/reverse`, {
      reason: 'Bounced: the transfer was recalled',
    });
    expect(reversed.status, reversed.text).toBe(200);
    const again = await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt`);
    expect(again.body.receiptNumber).toBe(response.body.receiptNumber);
    // A reversed payment says so, why and when, and no longer counts toward the loan.
    expect(again.body.allocation).toBeNull();
    expect(again.body.reversal).toEqual({
      reason: 'Bounced: the transfer was recalled',
      reversedAt: expect.any(String),
    });
    const text = await pdfText(await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt.pdf`));
    expect(text).toContain('REVERSED');
    expect(text).toContain('Bounced: the transfer was recalled');
    expect(text).toContain(`Reversed on ${writeIsoDate('en', today())}`);
    expect(text).toContain('does not count toward the loan');
    expect(text).not.toContain('How it was applied');
  });

  it('as a PDF: the receipt number, the loan, the payment and how it was applied, in the chosen language', async () => {
    const b = await borrowerWithPayment('Teodoro Bautista');
    const receipt = (await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt`)).body;
    const response = await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt.pdf?lang=en`);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="receipt-${receipt.receiptNumber}.pdf"`,
    );
    const text = await pdfText(response);
    expect(text).toContain('Payment receipt');
    expect(text).toContain(receipt.receiptNumber);
    expect(text).toContain(b.loanNumber);
    expect(text).toContain('Teodoro Bautista');
    expect(text).toMatch(/Amount received\s+₱5,000\.00/);
    expect(text).toMatch(/Paid through\s+GCash/);
    expect(text).toContain(b.reference);
    expect(text).toContain('How it was applied');
    expect(text).toMatch(/Principal paid ahead\s+₱5,000\.00/);
    expect(text).toContain('not a BIR invoice');
    expect(text).toContain('support@example.com');

    const fil = await pdfText(await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt.pdf?lang=fil`));
    expect(fil).toContain('Resibo ng bayad');
    expect(fil).toContain(receipt.receiptNumber);
    const zh = await pdfText(await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt.pdf?lang=zh`));
    expect(zh).toContain('还款收据');
    expect(zh).toContain(receipt.receiptNumber);
    const km = await pdfText(await b.agent.get(`/api/wallet/payments/${b.paymentId}/receipt.pdf?lang=km`));
    expect(km).toContain(receipt.receiptNumber);
  });

  it('shows money above the payoff as held for the borrower', async () => {
    const b = await borrowerWithPayment();
    const ledger = await finance.get(`/api/staff/loans/${b.loanId}/ledger`);
    const payoff = ledger.body.position.payoffMinor as number;
    const over = await finance.post(`/api/staff/loans/${b.loanId}/repayments`, {
      amount: ((payoff + 10_000) / 100).toFixed(2),
      receivedOn: today(),
      channel: 'gcash',
      reference: `OVER-${b.paymentId.slice(0, 8)}`,
    });
    expect(over.status, over.text).toBe(201);
    const receipt = await b.agent.get(`/api/wallet/payments/${over.body.id}/receipt`);
    expect(receipt.body.allocation.overpaymentMinor).toBe(10_000);
    const text = await pdfText(await b.agent.get(`/api/wallet/payments/${over.body.id}/receipt.pdf`));
    expect(text).toMatch(/Held as credit for you\s+₱100\.00/);
  });
});

describe('a payout receipt', () => {
  it('shows what was borrowed, the fee taken and what was sent, where to and under which reference', async () => {
    const b = await borrowerWithPayment('Marites Cruz');
    const response = await b.agent.get(`/api/wallet/payouts/${b.payoutId}/receipt`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      receiptNumber: `${b.loanNumber}-D${b.payoutId.replaceAll('-', '').slice(0, 8).toUpperCase()}`,
      loanNumber: b.loanNumber,
      borrowerName: 'Marites Cruz',
      amountMinor: 10_000_000,
      feeMinor: 150_000,
      netMinor: 9_850_000,
      bankName: 'BPI',
      accountNumberLast4: '7890',
      reference: 'BPI-PAYOUT-77',
    });
    const text = await pdfText(await b.agent.get(`/api/wallet/payouts/${b.payoutId}/receipt.pdf`));
    expect(text).toContain('Payout receipt');
    expect(text).toMatch(/Amount sent to you\s+₱98,500\.00/);
    expect(text).toMatch(/Amount borrowed\s+₱100,000\.00/);
    expect(text).toMatch(/Fee deducted\s+₱1,500\.00/);
    expect(text).toMatch(/Sent to\s+BPI ending in 7890/);
    expect(text).toContain('BPI-PAYOUT-77');
    expect(text).not.toContain('001234567890');
  });

  it('is not found while the payout is only requested: no money moved', async () => {
    const b = await borrowerWithPayment();
    const requested = await seedRequestedDisbursement(t.db, b.loanId, 100_000);
    for (const path of [
      `/api/wallet/payouts/${requested}/receipt`,
      `/api/wallet/payouts/${requested}/receipt.pdf`,
    ]) {
      const response = await b.agent.get(path);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect((await officer.get(`/api/staff/disbursements/${requested}/receipt`)).status).toBe(404);
  });
});

describe('who may see a receipt', () => {
  it("answers another borrower's receipts as not found, and staff see any through their own routes", async () => {
    const owner = await borrowerWithPayment('Owner Person');
    const other = await borrowerWithPayment('Other Person');
    const ownerPaths = [
      `/api/wallet/payments/${owner.paymentId}/receipt`,
      `/api/wallet/payments/${owner.paymentId}/receipt.pdf`,
      `/api/wallet/payouts/${owner.payoutId}/receipt`,
      `/api/wallet/payouts/${owner.payoutId}/receipt.pdf`,
    ];
    for (const path of ownerPaths) {
      expect((await owner.agent.get(path)).status, path).toBe(200);
      const refused = await other.agent.get(path);
      expect(refused.status, path).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
      expect((await officer.get(path)).status, path).toBe(403);
      expect((await t.agent().get(path)).status, path).toBe(401);
    }
    const staffPaths = [
      `/api/staff/repayments/${owner.paymentId}/receipt`,
      `/api/staff/repayments/${owner.paymentId}/receipt.pdf`,
      `/api/staff/disbursements/${owner.payoutId}/receipt`,
      `/api/staff/disbursements/${owner.payoutId}/receipt.pdf`,
    ];
    for (const path of staffPaths) {
      expect((await officer.get(path)).status, path).toBe(200);
      expect((await finance.get(path)).status, path).toBe(200);
      expect((await owner.agent.get(path)).status, path).toBe(403);
    }
    const staffView = await officer.get(`/api/staff/repayments/${owner.paymentId}/receipt`);
    const ownView = await owner.agent.get(`/api/wallet/payments/${owner.paymentId}/receipt`);
    expect(staffView.body).toEqual(ownView.body);
  });

  it('answers an unknown or malformed id as not found', async () => {
    const b = await borrowerWithPayment();
    for (const path of [
      '/api/wallet/payments/00000000-0000-4000-8000-000000000000/receipt',
      '/api/wallet/payments/not-an-id/receipt',
      '/api/staff/repayments/00000000-0000-4000-8000-000000000000/receipt.pdf',
    ]) {
      const agent = path.includes('/staff/') ? officer : b.agent;
      const response = await agent.get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });
});
