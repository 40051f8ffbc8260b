import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLoanProduct } from '../../../domain/loan/terms';
import { createTestApp, type TestApp } from '../../test-support/test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      loanProduct: { ...defaultLoanProduct, monthlyRateBp: 300, fees: { flatMinor: 50_000, percentBp: 100 } },
    },
  });
});
afterAll(() => t.close());

describe('loan product settings', () => {
  it('publishes the configured product', async () => {
    const response = await t.agent().get('/api/settings');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      currency: 'PHP',
      timeZone: 'Asia/Manila',
      loanProduct: {
        monthlyRateBp: 300,
        fees: { flatMinor: 50_000, percentBp: 100 },
        termsMonths: [6, 12, 18, 24],
      },
      repayments: { graceDays: 3, lateChargeMonthlyBp: 0 },
      paymentChannels: [
        { code: 'bank_transfer', name: 'Bank transfer', accountDetails: null, instructions: null },
        { code: 'gcash', name: 'GCash', accountDetails: null, instructions: null },
        { code: 'cash', name: 'Cash at the office', accountDetails: null, instructions: null },
      ],
    });
  });

  it('quotes with the configured rate and fees (one rate everywhere)', async () => {
    const { phone, password } = await t.signUpBorrower();
    const borrower = await t.loginAs(phone, password);
    const quote = await borrower.post('/api/applications/quote', { amount: 100000, termMonths: 12 });
    expect(quote.body.disclosure).toMatchObject({
      monthlyRate: '0.03',
      apr: '0.36',
      fees: { flatMinor: 50_000, percentBp: 100, totalMinor: 150_000 },
    });
    // With fees the effective rate exceeds the fee-free (1 + r)^12 − 1.
    expect(Number(quote.body.disclosure.effectiveAnnualRate)).toBeGreaterThan(1.03 ** 12 - 1);
  });
});
