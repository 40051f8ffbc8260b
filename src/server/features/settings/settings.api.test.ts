import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLoanProduct } from '../../../domain/loan/terms';
import { defaultPaymentChannels } from '../../../domain/schemas/settings';
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

describe('public settings', () => {
  it('publish the currency, time zone, contacts, default credit score and payment channels, and no loan terms', async () => {
    const response = await t.agent().get('/api/settings');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      currency: 'PHP',
      timeZone: 'Asia/Manila',
      supportEmail: 'support@example.com',
      applicationReviewHours: 24,
      regulatorContact: t.deps.config.regulatorContact,
      defaultCreditScore: 500,
      // The shipped example channels (docs/decisions/037); finance records repayments on them.
      paymentChannels: defaultPaymentChannels.map((c) => ({ ...c, accountNumber: c.accountNumber ?? null })),
    });
  });

  it('the loan settings priced version 1 of the default product, which the quote uses (one rate everywhere)', async () => {
    const { phone, password } = await t.signUpBorrower();
    const borrower = await t.loginAs(phone, password);
    const offered = await borrower.get('/api/products');
    expect(offered.body.items).toHaveLength(1);
    expect(offered.body.items[0]).toMatchObject({
      code: 'personal-loan',
      version: 1,
      monthlyRateBp: 300,
      fees: { flatMinor: 50_000, percentBp: 100, collection: 'deducted_from_payout' },
      termsMonths: [6, 12, 18, 24],
    });
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
