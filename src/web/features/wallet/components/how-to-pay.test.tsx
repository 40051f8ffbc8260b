import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type {
  PaymentReceiptDto,
  PayoutReceiptDto,
  WalletPaymentChannelDto,
} from '../../../../domain/schemas/paying';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';
import { makeDisbursement, paidOutWallet } from '../test/fixtures';

const borrower = makeUser();

function show(wallet: WalletResponse, more: Record<string, unknown> = {}, path = '/wallet') {
  mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/wallet': { body: wallet },
    ...(more as object),
  });
  return renderApp(path);
}

const gcash: WalletPaymentChannelDto = {
  code: 'gcash',
  name: 'GCash',
  accountDetails: 'GCash · Lender Inc. · 0917 555 0101',
  accountNumber: '09175550101',
  instructions: 'Send Money → Express Send',
  example: false,
  qr: {
    payload:
      '00020101021227780012com.p2pqrpay0111GXCHPHM2XXX0208999644030411091755501015204601653036085408413049.5',
    amountMinor: 4_150_495,
    maxAmountMinor: 5_000_000,
  },
};

const example: WalletPaymentChannelDto = {
  code: 'bank_transfer',
  name: 'Bank transfer',
  accountDetails: 'BDO Unibank · Account name: Sample Lending Corp. · Account no. 0000 0000 0000',
  accountNumber: '000000000000',
  instructions: null,
  example: true,
  qr: null,
};

describe('how to pay', () => {
  it('shows the amount due now and the loan number, each with a copy button that says "Copied"', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    show(paidOutWallet({ paymentChannels: [gcash] }));
    const pay = await screen.findByRole('region', { name: 'How to pay' });
    expect(within(pay).getByTestId('copy-amount-value').textContent).toBe('₱41,504.95');
    expect(within(pay).getByTestId('copy-reference-value').textContent).toBe('HL-25-000042');

    await userEvent.click(within(pay).getByRole('button', { name: 'Copy Reference: your loan number' }));
    expect(writeText).toHaveBeenCalledWith('HL-25-000042');
    expect(await within(pay).findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(within(pay).getByText('Reference: your loan number copied').getAttribute('role')).toBe('status');

    // The amount goes to the clipboard as an app takes it: digits and a decimal point.
    await userEvent.click(within(pay).getByRole('button', { name: 'Copy Amount to pay now' }));
    expect(writeText).toHaveBeenLastCalledWith('41504.95');
    await userEvent.click(within(pay).getByRole('button', { name: 'Copy Account number' }));
    expect(writeText).toHaveBeenLastCalledWith('09175550101');
    // After two seconds the buttons say "Copy" again. Waiting for it also lets their timers end inside the
    // test: one firing after the file's window is gone made the run fail ("window is not defined").
    expect(
      await within(pay).findByRole('button', { name: 'Copy Account number' }, { timeout: 4000 }),
    ).toBeTruthy();
    await waitFor(() => expect(within(pay).queryByRole('button', { name: 'Copied' })).toBeNull(), {
      timeout: 4000,
    });
  });

  it('shows a channel with its QR Ph code, the apps that scan it, the amount in it and the picture to save', async () => {
    show(paidOutWallet({ paymentChannels: [gcash] }));
    const card = await screen.findByTestId('channel-gcash');
    const image = within(card).getByRole('img', {
      name: 'QR Ph code to pay ₱41,504.95 by GCash, reference HL-25-000042',
    });
    expect(image.getAttribute('src')).toBe(
      `/api/wallet/payment-qr/gcash?format=svg&v=${gcash.qr!.payload.slice(-4)}`,
    );
    expect(within(card).getByText('Scan with GCash, Maya or any bank app that takes QR Ph.')).toBeTruthy();
    expect(
      within(card).getByText('The amount ₱41,504.95 and the reference are filled in for you.'),
    ).toBeTruthy();
    // The account written out stays beside the code.
    expect(within(card).getByText('GCash · Lender Inc. · 0917 555 0101')).toBeTruthy();
    const save = within(card).getByRole('link', { name: 'Save QR image' });
    expect(save.getAttribute('href')).toMatch(/^\/api\/wallet\/payment-qr\/gcash\?format=png&v=/);
    expect(save.hasAttribute('download')).toBe(true);
  });

  it('says when the amount is above what one transfer by the code can take', async () => {
    const capped = { ...gcash, qr: { ...gcash.qr!, amountMinor: null, maxAmountMinor: 1_000_000 } };
    show(paidOutWallet({ paymentChannels: [capped] }));
    const card = await screen.findByTestId('channel-gcash');
    expect(
      within(card).getByText('Type the amount yourself; the reference is filled in for you.'),
    ).toBeTruthy();
    expect(
      within(card).getByText(/₱41,504\.95 is more than one transfer by this code can take \(₱10,000\.00\)/),
    ).toBeTruthy();
  });

  it('marks example channels unmistakably: a warning, a badge, nothing to copy or scan', async () => {
    show(paidOutWallet({ paymentChannels: [example] }));
    const pay = await screen.findByRole('region', { name: 'How to pay' });
    const warning = within(pay).getByTestId('example-channels');
    expect(warning.textContent).toContain('Example payment details: do not pay');
    expect(warning.textContent).toContain('write to support@example.com');
    const card = within(pay).getByTestId('channel-bank_transfer');
    expect(within(card).getByText('Example')).toBeTruthy();
    expect(
      within(card).getByText('Example — your lender has not set this up yet. Do not send money here.'),
    ).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
    expect(within(card).queryByRole('img')).toBeNull();
    // The loan number is still the borrower's to copy.
    expect(within(pay).getByRole('button', { name: 'Copy Reference: your loan number' })).toBeTruthy();
  });

  it('asks the borrower to contact support when no channel has account details', async () => {
    show(paidOutWallet({ paymentChannels: [] }));
    const pay = await screen.findByRole('region', { name: 'How to pay' });
    expect(
      within(pay).getByText(
        'Please contact support@example.com to learn how to pay, and quote your loan number HL-25-000042.',
      ),
    ).toBeTruthy();
  });

  it('shows nothing to pay on a closed loan, only the payments', async () => {
    show(paidOutWallet({ closedAt: '2025-05-02T02:00:00Z', paymentChannels: [gcash] }));
    await screen.findByRole('region', { name: 'Payments received' });
    expect(screen.queryByRole('region', { name: 'How to pay' })).toBeNull();
  });
});

describe('payments received', () => {
  it('shows a reversed payment with its badge and reason, and every payment with its receipt', async () => {
    const wallet = paidOutWallet({
      repayments: [
        {
          id: '30000000-0000-4000-8000-000000000002',
          amountMinor: 500_000,
          receivedOn: '2025-03-25',
          channel: 'gcash',
          reference: 'GC-A-VERY-LONG-BANK-REFERENCE-WITHOUT-ANY-SPACES-0123456789',
          reversed: true,
          allocation: null,
          reversal: { reason: 'Bounced: recalled by the bank', reversedAt: '2025-03-26T02:00:00Z' },
        },
        ...paidOutWallet().repayment!.repayments,
      ],
    });
    show(wallet);
    const payments = await screen.findByRole('region', { name: 'Payments received' });
    const [reversed, ok] = within(payments).getAllByTestId('payment');
    expect(within(reversed!).getByText('Reversed')).toBeTruthy();
    expect(
      within(reversed!).getByText('Reversed on Mar 26, 2025: Bounced: recalled by the bank'),
    ).toBeTruthy();
    expect(within(ok!).queryByText('Reversed')).toBeNull();
    const link = within(reversed!).getByRole('link', {
      name: 'View receipt for ₱5,000.00 received Mar 25, 2025',
    });
    expect(link.getAttribute('href')).toBe('/wallet/receipts/payments/30000000-0000-4000-8000-000000000002');
  });

  it('links a paid payout to its receipt, and a requested one to none', async () => {
    const wallet = paidOutWallet();
    wallet.disbursements = [
      makeDisbursement({ id: 'd-paid', status: 'paid', reference: 'BPI-1', amountMinor: 2_000_000 }),
      makeDisbursement({ id: 'd-req', status: 'requested', reference: null }),
    ];
    show(wallet);
    const payouts = await screen.findByRole('region', { name: 'Withdrawals' });
    const links = within(payouts).getAllByRole('link', { name: /^View receipt/ });
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('href')).toBe('/wallet/receipts/payouts/d-paid');
    expect(links[0]!.textContent).toContain('for the payout of ₱20,000.00');
  });
});

const paymentReceipt: PaymentReceiptDto = {
  receiptNumber: 'HL-25-000042-R30000000',
  repaymentId: '30000000-0000-4000-8000-000000000001',
  loanId: 'loan',
  loanNumber: 'HL-25-000042',
  borrowerName: 'Maria Dela Cruz',
  amountMinor: 1_000_000,
  receivedOn: '2025-03-20',
  channel: 'gcash',
  channelName: 'GCash',
  reference: 'GC-1',
  recordedAt: '2025-03-20T02:00:00Z',
  allocation: {
    lateChargesMinor: 0,
    interestMinor: 120_000,
    principalMinor: 880_000,
    advanceMinor: 0,
    prepaidPrincipalMinor: 0,
    overpaymentMinor: 0,
  },
  reversal: null,
};

describe('the receipt page', () => {
  it('shows a payment: number, amount, facts, how it was applied, and the PDF in the reader’s language', async () => {
    show(
      paidOutWallet(),
      {
        'GET /api/wallet/payments/30000000-0000-4000-8000-000000000001/receipt': { body: paymentReceipt },
      },
      '/wallet/receipts/payments/30000000-0000-4000-8000-000000000001',
    );
    const article = await screen.findByRole('article', { name: 'Payment receipt' });
    expect(within(article).getByTestId('receipt-number').textContent).toBe(
      'Receipt no. HL-25-000042-R30000000',
    );
    expect(within(article).getByTestId('receipt-amount').textContent).toBe('₱10,000.00');
    expect(within(article).getByText('Received')).toBeTruthy();
    expect(within(article).getByText('Maria Dela Cruz')).toBeTruthy();
    const applied = within(article).getByTestId('receipt-allocation');
    expect(applied.textContent).toBe('Interest₱1,200.00Principal₱8,800.00');
    const pdf = within(article).getByRole('link', { name: 'Download receipt (PDF)' });
    expect(pdf.getAttribute('href')).toBe(
      '/api/wallet/payments/30000000-0000-4000-8000-000000000001/receipt.pdf?lang=en',
    );
    expect(screen.getByRole('link', { name: 'Back to wallet' }).getAttribute('href')).toBe('/wallet');
  });

  it('says a reversed payment was reversed, when and why', async () => {
    const reversed = {
      ...paymentReceipt,
      allocation: null,
      reversal: { reason: 'Bounced', reversedAt: '2025-03-26T02:00:00Z' },
    };
    show(
      paidOutWallet(),
      {
        'GET /api/wallet/payments/p1/receipt': { body: reversed },
      },
      '/wallet/receipts/payments/p1',
    );
    const article = await screen.findByRole('article', { name: 'Payment receipt' });
    expect(within(article).getByText('Reversed')).toBeTruthy();
    expect(within(article).getByTestId('receipt-reversal').textContent).toContain(
      'Reversed on Mar 26, 2025. Reason: Bounced. It does not count toward your loan.',
    );
    expect(within(article).queryByTestId('receipt-allocation')).toBeNull();
  });

  it('shows a payout: what was borrowed, the fee and what was sent', async () => {
    const payout: PayoutReceiptDto = {
      receiptNumber: 'HL-25-000042-DAAAAAAAA',
      disbursementId: 'd1',
      loanId: 'loan',
      loanNumber: 'HL-25-000042',
      borrowerName: 'Maria Dela Cruz',
      requestedAt: '2025-03-01T02:00:00Z',
      paidAt: '2025-03-02T02:00:00Z',
      amountMinor: 10_000_000,
      feeMinor: 150_000,
      netMinor: 9_850_000,
      bankName: 'BPI',
      accountNumberLast4: '7890',
      reference: 'BPI-77',
    };
    show(
      paidOutWallet(),
      { 'GET /api/wallet/payouts/d1/receipt': { body: payout } },
      '/wallet/receipts/payouts/d1',
    );
    const article = await screen.findByRole('article', { name: 'Payout receipt' });
    expect(within(article).getByTestId('receipt-amount').textContent).toBe('₱98,500.00');
    expect(within(article).getByTestId('receipt-amounts').textContent).toBe(
      'Amount borrowed₱100,000.00Fee deducted₱1,500.00Sent to you₱98,500.00',
    );
    expect(within(article).getByText('BPI ending in 7890')).toBeTruthy();
  });

  it('says a receipt that is not the borrower’s was not found', async () => {
    show(
      paidOutWallet(),
      {
        'GET /api/wallet/payments/nope/receipt': {
          status: 404,
          body: { error: { code: 'NOT_FOUND', message: 'Not found.', fields: {} } },
        },
      },
      '/wallet/receipts/payments/nope',
    );
    await waitFor(() => expect(screen.getByText('We could not find this receipt.')).toBeTruthy());
  });
});
