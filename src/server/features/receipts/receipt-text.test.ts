import { describe, expect, it } from 'vitest';
import { receiptNumber } from '../../../domain/payments/receipts';
import type { PaymentReceiptDto, PayoutReceiptDto } from '../../../domain/schemas/paying';
import { paymentReceiptDocument, payoutReceiptDocument, receiptTexts } from './receipt-text';

const context = {
  lenderName: 'Hiram',
  supportEmail: 'help@lender.example',
  timeZone: 'Asia/Manila',
  // 23:30 UTC on Dec 27 is already Dec 28 in Manila.
  now: new Date('2026-12-27T23:30:00Z'),
};

const payment: PaymentReceiptDto = {
  receiptNumber: 'HL-26-000002-R7F3A9C21',
  repaymentId: '7f3a9c21-0000-4000-8000-000000000001',
  loanId: 'loan',
  loanNumber: 'HL-26-000002',
  borrowerName: 'Maria Dela Cruz',
  amountMinor: 472_798,
  receivedOn: '2026-12-28',
  channel: 'gcash',
  channelName: 'GCash',
  reference: 'GC-123',
  recordedAt: '2026-12-28T02:00:00Z',
  allocation: {
    lateChargesMinor: 32_486,
    interestMinor: 180_000,
    principalMinor: 260_312,
    advanceMinor: 0,
    prepaidPrincipalMinor: 0,
    overpaymentMinor: 0,
  },
  reversal: null,
};

const payout: PayoutReceiptDto = {
  receiptNumber: 'HL-26-000002-D1B2C3D4',
  disbursementId: '1b2c3d4e-0000-4000-8000-000000000001',
  loanId: 'loan',
  loanNumber: 'HL-26-000002',
  borrowerName: 'Maria Dela Cruz',
  requestedAt: '2026-11-27T01:00:00Z',
  paidAt: '2026-11-28T03:00:00Z',
  amountMinor: 10_000_000,
  feeMinor: 150_000,
  netMinor: 9_850_000,
  bankName: 'BPI',
  accountNumberLast4: '7890',
  reference: 'BPI-77',
};

/** Every text by its dotted key. */
const flat = (tree: object, prefix = ''): Record<string, string> =>
  Object.fromEntries(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === 'object'
        ? Object.entries(flat(value, `${prefix}${key}.`))
        : [[`${prefix}${key}`, value]],
    ),
  );
const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('receipt texts', () => {
  it('have the same keys and placeholders in every language, translated', () => {
    const en = flat(receiptTexts.en);
    for (const language of ['zh', 'km', 'fil'] as const) {
      const other = flat(receiptTexts[language]);
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        expect({ key, names: names(other[key] ?? '') }).toEqual({ key, names: names(text) });
        expect({ key, same: other[key] === text }).toEqual({ key, same: false });
      }
    }
  });
});

describe('the payment receipt document', () => {
  it('writes the amount, the facts and only the parts of the allocation that took money', () => {
    const doc = paymentReceiptDocument(payment, 'en', context);
    expect(doc.title).toBe('Payment receipt');
    expect(doc.issued).toBe('Issued Dec 28, 2026');
    expect(doc.headline).toEqual({ label: 'Amount received', value: '₱4,727.98' });
    expect(doc.reversed).toBeNull();
    expect(doc.facts).toEqual([
      { label: 'Receipt no.', value: 'HL-26-000002-R7F3A9C21' },
      { label: 'Loan number', value: 'HL-26-000002' },
      { label: 'Borrower', value: 'Maria Dela Cruz' },
      { label: 'Date received', value: 'Dec 28, 2026' },
      { label: 'Paid through', value: 'GCash' },
      { label: 'Payment reference', value: 'GC-123' },
      { label: 'Recorded on', value: 'Dec 28, 2026' },
    ]);
    expect(doc.breakdown).toEqual([
      { label: 'Late charges', value: '₱324.86' },
      { label: 'Interest', value: '₱1,800.00' },
      { label: 'Principal', value: '₱2,603.12' },
    ]);
    expect(doc.footer).toBe(
      'Questions about this receipt? Write to help@lender.example and quote the receipt number.',
    );
  });

  it('says REVERSED with the day and the reason, and shows no allocation', () => {
    const doc = paymentReceiptDocument(
      { ...payment, allocation: null, reversal: { reason: 'Bounced', reversedAt: '2026-12-30T01:00:00Z' } },
      'fil',
      context,
    );
    expect(doc.reversed).toEqual({
      label: 'BINAWI',
      note: 'Binawi noong Dis 30, 2026. Dahilan: Bounced. Hindi ibinibilang ang bayad na ito sa loan.',
    });
    expect(doc.breakdown).toEqual([]);
  });
});

describe('the payout receipt document', () => {
  it('writes gross, fee and net, and the account by its last four digits only', () => {
    const doc = payoutReceiptDocument(payout, 'zh', context);
    expect(doc.headline).toEqual({ label: '已发送给您的金额', value: '₱98,500.00' });
    expect(doc.facts).toContainEqual({ label: '收款账户', value: 'BPI，尾号 7890' });
    expect(doc.breakdown.map((b) => b.value)).toEqual(['₱100,000.00', '₱1,500.00', '₱98,500.00']);
  });
});

describe('receipt numbers', () => {
  it('are the loan number, R or D, and the first 8 hex digits of the record id', () => {
    expect(receiptNumber('payment', 'HL-26-000002', '7f3a9c21-0000-4000-8000-000000000001')).toBe(
      'HL-26-000002-R7F3A9C21',
    );
    expect(receiptNumber('payout', 'HL-26-000002', '1b2c3d4e-0000-4000-8000-000000000001')).toBe(
      'HL-26-000002-D1B2C3D4E',
    );
    expect(() => receiptNumber('payment', 'HL-26-000002', 'nope')).toThrow();
  });
});
