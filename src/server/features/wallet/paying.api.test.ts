import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addDays, addMonthsClamped } from '../../../domain/loan/calendar';
import { decodeQrPh } from '../../../domain/payments/qr-ph';
import { defaultPaymentChannels } from '../../../domain/schemas/settings';
import { enqueuePaymentReminders } from '../../jobs/payment-reminders';
import { loanNumberOf, seedBorrowerWithApplication, seedPaidDisbursement } from '../../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../../test-support/test-app';

/**
 * How a borrower pays (issue #32): the channels with what to copy, examples flagged and never given a code,
 * and a QR Ph code carrying the loan number and the amount due now; the code's image; reversal reasons.
 * The app runs on a settable clock; payouts are marked paid at the real time, so the first due date is a
 * month after today's real date (Manila).
 */
const clock = { at: new Date(), now: () => clock.at };
const PAYOUT_DAY = todayIn('Asia/Manila');
const AFTER_FIRST_DUE = addDays(addMonthsClamped(PAYOUT_DAY, 1), 1);
const manila = (date: string, time: string) => new Date(`${date}T${time}:00+08:00`);

const bdo = {
  code: 'bank_transfer',
  name: 'Bank transfer',
  accountDetails: 'BDO · Lender Inc. · 0065 4028 3953',
  accountNumber: '006540283953',
  instructions: 'InstaPay from any app',
  qrPh: {
    type: 'p2p' as const,
    bic: 'BNORPHMMXXX',
    accountNumber: '006540283953',
    merchantName: 'Lender Inc',
    merchantCity: 'Makati City',
  },
};
/** A second code that takes at most ₱100 (a lender's own limit). */
const small = {
  code: 'maya',
  name: 'Maya',
  accountDetails: 'Maya · Lender Inc. · 0917 555 0101',
  instructions: null,
  qrPh: { ...bdo.qrPh, bic: 'PAPHPHM1XXX', accountNumber: '639175550101', maxAmount: 100 },
};

let t: TestApp;
let finance: Agent;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    config: {
      paymentChannels: [
        bdo,
        small,
        // The shipped GCash example, left in place: shown as an example, never with a code.
        { ...defaultPaymentChannels[1]!, qrPh: { ...bdo.qrPh, bic: 'GXCHPHM2XXX' } },
        { code: 'cash', name: 'Cash at the office', accountDetails: null, instructions: null },
      ],
    },
  });
  finance = await t.signInStaff('finance');
});
afterAll(() => t.close());

/** A borrower with a ₱100,000 loan over 12 months, paid out today (unless not). */
async function borrower(options: { paidOut?: boolean } = {}) {
  clock.at = new Date();
  const { borrower: b, id } = await seedBorrowerWithApplication(t, { status: 'approved' });
  if (options.paidOut !== false) await seedPaidDisbursement(t.db, id, {}, t.deps);
  const loanNumber = await loanNumberOf(t.db, id);
  return { id, loanNumber, agent: await t.loginAs(b.phone, b.password) };
}

describe('the ways to pay in the wallet', () => {
  it('lists the channels to pay to, flags an example, and gives a real QR Ph channel a code with the loan number', async () => {
    const b = await borrower();
    const wallet = await b.agent.get('/api/wallet');
    expect(wallet.status).toBe(200);
    const channels = wallet.body.repayment.paymentChannels;
    // The cash desk has no account details: finance records it, borrowers are not sent there.
    expect(channels.map((c: { code: string }) => c.code)).toEqual(['bank_transfer', 'maya', 'gcash']);
    expect(channels[0]).toMatchObject({
      name: 'Bank transfer',
      accountDetails: 'BDO · Lender Inc. · 0065 4028 3953',
      accountNumber: '006540283953',
      instructions: 'InstaPay from any app',
      example: false,
      qr: { amountMinor: null, maxAmountMinor: 5_000_000 },
    });
    expect(channels[2]).toMatchObject({ example: true, qr: null, accountNumber: '09000000000' });
    // Nothing is due on the payout day: a static code, the borrower types the amount; the reference is in it.
    const decoded = decodeQrPh(channels[0].qr.payload);
    expect(decoded).toMatchObject({
      crcValid: true,
      pointOfInitiation: 'static',
      amountMinor: null,
      reference: b.loanNumber,
      account: { guid: 'com.p2pqrpay', bic: 'BNORPHMMXXX', accountNumber: '006540283953' },
      merchantName: 'Lender Inc',
    });
  });

  it('puts the amount due now in the code once an instalment falls due, within the limit', async () => {
    const b = await borrower();
    clock.at = manila(AFTER_FIRST_DUE, '10:00');
    const wallet = (await b.agent.get('/api/wallet')).body;
    const due = wallet.repayment.position.amountDueNowMinor;
    expect(due).toBeGreaterThan(10_000);
    const [bank, maya] = wallet.repayment.paymentChannels;
    expect(bank.qr.amountMinor).toBe(due);
    expect(decodeQrPh(bank.qr.payload)).toMatchObject({
      pointOfInitiation: 'dynamic',
      amountMinor: due,
      reference: b.loanNumber,
    });
    // Above this code's ₱100 limit: no amount in it, the borrower types what they can send.
    expect(maya.qr).toMatchObject({ amountMinor: null, maxAmountMinor: 10_000 });
    expect(decodeQrPh(maya.qr.payload).pointOfInitiation).toBe('static');

    // Paid up to date: nothing due now, the code goes back to static.
    const paid = await finance.post(`/api/staff/loans/${b.id}/repayments`, {
      amount: (due / 100).toFixed(2),
      receivedOn: AFTER_FIRST_DUE,
      channel: 'bank_transfer',
      reference: `BDO-${b.loanNumber}`,
    });
    expect(paid.status, paid.text).toBe(201);
    const after = (await b.agent.get('/api/wallet')).body.repayment;
    expect(after.position.amountDueNowMinor).toBe(0);
    expect(after.paymentChannels[0].qr.amountMinor).toBeNull();
  });

  it('shows why and when a payment was reversed', async () => {
    const b = await borrower();
    const paid = await finance.post(`/api/staff/loans/${b.id}/repayments`, {
      amount: '1000',
      receivedOn: PAYOUT_DAY,
      channel: 'bank_transfer',
      reference: `REV-${b.loanNumber}`,
    });
    await finance.post(`/api/staff/repayments/${paid.body.id}/reverse`, {
      reason: 'Recorded on the wrong loan',
    });
    const [payment] = (await b.agent.get('/api/wallet')).body.repayment.repayments;
    expect(payment).toMatchObject({
      id: paid.body.id,
      reversed: true,
      allocation: null,
      reversal: { reason: 'Recorded on the wrong loan', reversedAt: expect.any(String) },
    });
  });

  it('never texts an example channel as a way to pay', async () => {
    const b = await borrower();
    clock.at = manila(addMonthsClamped(PAYOUT_DAY, 1), '10:00');
    await enqueuePaymentReminders(t.deps);
    const reminder = await t.db
      .selectFrom('loan_reminders')
      .select('text')
      .where('application_id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(reminder.text).toContain('0065 4028 3953');
    expect(reminder.text).not.toContain('0900 000 0000');
  });
});

describe('the QR code image', () => {
  it('draws the same code as the wallet: SVG on screen, PNG to save and upload', async () => {
    const b = await borrower();
    const { payload } = (await b.agent.get('/api/wallet')).body.repayment.paymentChannels[0].qr;
    const svg = await b.agent.get('/api/wallet/payment-qr/bank_transfer?format=svg&v=1234');
    expect(svg.status, svg.text).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(svg.headers['cache-control']).toBe('no-store');
    expect(svg.text).toBe(
      await QRCode.toString(payload, { errorCorrectionLevel: 'M', margin: 4, type: 'svg' }),
    );
    const png = await b.agent.get('/api/wallet/payment-qr/bank_transfer?format=png');
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toBe(
      `attachment; filename="qrph-${b.loanNumber}-bank_transfer.png"`,
    );
    expect(png.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('is not found for an example, a channel without a code, an unknown one, or before the payout', async () => {
    const b = await borrower();
    for (const channel of ['gcash', 'cash', 'nope', 'Bad Code']) {
      const response = await b.agent.get(`/api/wallet/payment-qr/${encodeURIComponent(channel)}`);
      expect(response.status, channel).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    const waiting = await borrower({ paidOut: false });
    expect((await waiting.agent.get('/api/wallet/payment-qr/bank_transfer')).status).toBe(404);
    const fresh = await t.signUpBorrower();
    const nobody = await t.loginAs(fresh.phone, fresh.password);
    expect((await nobody.get('/api/wallet/payment-qr/bank_transfer')).status).toBe(404);
    expect((await finance.get('/api/wallet/payment-qr/bank_transfer')).status).toBe(403);
    expect((await t.agent().get('/api/wallet/payment-qr/bank_transfer')).status).toBe(401);
  });
});
