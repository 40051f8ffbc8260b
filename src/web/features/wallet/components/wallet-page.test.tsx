import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { BorrowerEventKind } from '../../../../domain/borrower-events';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';
import {
  approvedWallet,
  emptyWallet,
  makeApplication,
  makeDisbursement,
  makeEvent,
  paidOutWallet,
  pendingWallet,
} from '../test/fixtures';

const borrower = makeUser();

function showWallet(wallet: WalletResponse | (() => WalletResponse)) {
  const fetchMock = mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/wallet': () => ({ body: typeof wallet === 'function' ? wallet() : wallet }),
  });
  const view = renderApp('/wallet');
  return { ...view, fetchMock };
}

/** The Alert's colour as Mantine renders it (its CSS variables), not just our own data attribute. */
function renderedColour(panel: HTMLElement): string {
  return panel.style.getPropertyValue('--alert-color');
}

describe('wallet status panel', () => {
  it.each([
    [
      'pending',
      pendingWallet(),
      'Pending',
      'Your loan is pending approval from the Finance Department. Please be patient.',
      'yellow',
    ],
    [
      'approved',
      approvedWallet(),
      'Approved',
      'Congratulations, your loan has been approved. You can now withdraw to your account from this wallet.',
      'green',
    ],
    [
      'on hold',
      approvedWallet({
        application: makeApplication({ status: 'on_hold', statusMessage: 'Please call our office first.' }),
      }),
      'On hold',
      'Withdrawals are paused: Please call our office first.',
      'red',
    ],
    [
      'rejected',
      pendingWallet({
        application: makeApplication({ status: 'rejected', rejectReason: 'The ID picture is unreadable.' }),
        canApply: true,
      }),
      'Rejected',
      'The ID picture is unreadable.',
      'red',
    ],
    [
      'in processing',
      approvedWallet({ inProcessing: true, disbursements: [makeDisbursement()] }),
      'In Processing',
      'Your withdrawal is being processed. This usually takes up to 10 minutes.',
      'blue',
    ],
  ])('%s: shows the SPEC text in its colour', async (_name, wallet, title, text, colour) => {
    showWallet(wallet);
    const panel = (await screen.findByText(text)).closest<HTMLElement>('[data-status]')!;
    expect(panel).toBeTruthy();
    expect(within(panel).getByText(title)).toBeTruthy();
    expect(panel.getAttribute('data-color')).toBe(colour);
    expect(renderedColour(panel)).toContain(`--mantine-color-${colour}-`);
  });

  it('can be dismissed', async () => {
    showWallet(pendingWallet());
    const text = 'Your loan is pending approval from the Finance Department. Please be patient.';
    await screen.findByText(text);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(text)).toBeNull();
  });

  it('lets a rejected borrower apply again', async () => {
    showWallet(
      pendingWallet({
        application: makeApplication({ status: 'rejected', rejectReason: 'Income too low' }),
        canApply: true,
      }),
    );
    const link = await screen.findByRole('link', { name: 'Apply again' });
    expect(link.getAttribute('href')).toBe('/loan/application');
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('shows the pending application without a withdraw form', async () => {
    showWallet(pendingWallet());
    await screen.findByText('Pending');
    expect(screen.getByText('Requested amount')).toBeTruthy();
    expect(screen.getByText('₱100,000.00')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send code' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
    expect(screen.queryByText('Repayment schedule')).toBeNull();
  });

  it('offers a way to apply when there is no application', async () => {
    showWallet(emptyWallet());
    const link = await screen.findByRole('link', { name: 'Apply for a loan' });
    expect(link.getAttribute('href')).toBe('/loan/application');
    expect(screen.getByText('No loan yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
  });

  it('pauses withdrawals while the loan is on hold', async () => {
    showWallet(
      approvedWallet({
        application: makeApplication({ status: 'on_hold', statusMessage: 'Call us' }),
      }),
    );
    expect(await screen.findByText('Withdrawals are paused: Call us')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
    expect(screen.queryByLabelText('Verification code')).toBeNull();
  });
});

describe('wallet loan card, withdrawals and schedule', () => {
  it('shows the borrower, loan number and derived balance', async () => {
    showWallet(
      approvedWallet({
        balance: { approvedMinor: 10_000_000, withdrawnMinor: 2_500_000, availableMinor: 7_500_000 },
      }),
    );
    const card = await screen.findByRole('region', { name: 'Loan card' });
    expect(within(card).getByText('Maria Santos')).toBeTruthy();
    expect(within(card).getByText('HL-25-000042')).toBeTruthy();
    expect(within(card).getByTestId('available-balance').textContent).toBe('₱75,000.00');
    expect(within(card).getByTestId('withdrawn-total').textContent).toBe('₱25,000.00');
  });

  it('a closed loan shows what was withdrawn beside what was approved, and no headline to withdraw or pay', async () => {
    showWallet(
      approvedWallet({
        application: makeApplication({ status: 'closed' }),
        balance: { approvedMinor: 10_000_000, withdrawnMinor: 9_000_000, availableMinor: 1_000_000 },
      }),
    );
    const card = await screen.findByRole('region', { name: 'Loan card' });
    expect(within(card).getByTestId('withdrawn-total').textContent).toBe('₱90,000.00');
    const approved = within(card).getByText('Approved amount');
    expect(approved.nextElementSibling?.textContent).toBe('₱100,000.00');
    // Nothing is left to withdraw from a closed loan, whatever the balance says, and nothing is owed.
    expect(within(card).queryByTestId('available-balance')).toBeNull();
    expect(within(card).queryByTestId('payoff-today')).toBeNull();
  });

  it('formats money in the current language', async () => {
    window.localStorage.setItem('hiram.lang', 'zh');
    const { default: i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('zh');
    showWallet(approvedWallet());
    const card = await screen.findByRole('region', { name: '贷款卡片' });
    expect(within(card).getByTestId('available-balance').textContent).toBe('₱100,000.00');
    expect(screen.getByText('已批准')).toBeTruthy();
  });

  it('lists disbursements with their status, reference or reason', async () => {
    showWallet(
      approvedWallet({
        disbursements: [
          makeDisbursement({ id: 'd3', amountMinor: 300_000, status: 'requested' }),
          makeDisbursement({
            id: 'd2',
            amountMinor: 200_000,
            status: 'failed',
            failureReason: 'Account closed',
          }),
          makeDisbursement({ id: 'd1', amountMinor: 100_000, status: 'paid', reference: 'GC-778812' }),
        ],
      }),
    );
    const rows = await screen.findAllByTestId('disbursement');
    expect(rows.map((row) => within(row).getByText(/^₱/).textContent)).toEqual([
      '₱3,000.00',
      '₱2,000.00',
      '₱1,000.00',
    ]);
    expect(within(rows[0]!).getByText('Requested')).toBeTruthy();
    expect(within(rows[1]!).getByText('Failed')).toBeTruthy();
    expect(within(rows[1]!).getByText('Reason: Account closed')).toBeTruthy();
    expect(within(rows[2]!).getByText('Paid')).toBeTruthy();
    expect(within(rows[2]!).getByText('Reference: GC-778812')).toBeTruthy();
    // Requested at 01:00 UTC is 09:00 in Manila.
    expect(within(rows[0]!).getByText(/Mar 3, 2025,? 9:00\sAM/)).toBeTruthy();
  });

  it('shows the repayment schedule of an approved loan', async () => {
    showWallet(approvedWallet());
    const schedule = await screen.findByRole('region', { name: 'Repayment schedule' });
    expect(within(schedule).getByText('Apr 2, 2025')).toBeTruthy();
    expect(within(schedule).getAllByText('₱17,852.58')).toHaveLength(2);
    expect(
      within(schedule).getByText('Principal ₱15,852.58 · Interest ₱2,000.00 · Balance ₱84,147.42'),
    ).toBeTruthy();
  });

  it('before the first payout says when the schedule starts, instead of inventing one', async () => {
    showWallet(
      approvedWallet({
        schedule: [],
        repayment: {
          position: null,
          repayments: [],
          paymentReference: 'HL-25-000042',
          paymentChannels: [],
          closedAt: null,
          paidInFullOn: null,
          refunds: [],
        },
      }),
    );
    const schedule = await screen.findByRole('region', { name: 'Repayment schedule' });
    expect(
      within(schedule).getByText(/Your repayment schedule starts when your first withdrawal is paid out/),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'How to pay' })).toBeNull();
  });

  it('shows each payment state, the next payment, the payoff and how to pay', async () => {
    showWallet(paidOutWallet());
    const schedule = await screen.findByRole('region', { name: 'Repayment schedule' });
    expect(within(schedule).getByText('Overdue · 10 days')).toBeTruthy();
    expect(within(schedule).getByText('Upcoming')).toBeTruthy();
    // What is due is said once, on the card at the top (loan-now-card.test.tsx), not again here.
    expect(within(schedule).queryByText(/^Next payment/)).toBeNull();
    expect(within(schedule).getByText('To pay off the whole loan today: ₱92,330.00')).toBeTruthy();
    const pay = screen.getByRole('region', { name: 'How to pay' });
    // No channel with account details configured: no invented account, the borrower asks support.
    await within(pay).findByText(
      'Please contact support@example.com to learn how to pay, and quote your loan number HL-25-000042.',
    );
    const payments = screen.getByRole('region', { name: 'Payments received' });
    expect(within(payments).getByText('₱10,000.00')).toBeTruthy();
    expect(within(payments).getByText('Reference: GC-1')).toBeTruthy();
  });

  it('lists the configured payment channels with the loan number to quote', async () => {
    showWallet(
      paidOutWallet({
        paymentChannels: [
          {
            code: 'bpi',
            name: 'BPI',
            accountDetails: 'Lender Inc. · 0000-1111-22',
            accountNumber: null,
            instructions: 'Pay at any branch',
            example: false,
            qr: null,
          },
        ],
      }),
    );
    const pay = await screen.findByRole('region', { name: 'How to pay' });
    expect(within(pay).getByTestId('copy-reference-value').textContent).toBe('HL-25-000042');
    expect(within(pay).getAllByText('Lender Inc. · 0000-1111-22').length).toBeGreaterThan(0);
    expect(within(pay).getByText('Pay at any branch')).toBeTruthy();
  });

  it('tells the borrower about payments, reversals and closure in the updates', async () => {
    showWallet({
      ...paidOutWallet(),
      history: [
        makeEvent('loan_reopened', { message: 'Bounced cheque' }),
        makeEvent('repayment_reversed', {
          message: 'Bounced cheque',
          data: { amountMinor: 1_000_000, reference: 'GC-1' },
        }),
        makeEvent('loan_closed'),
        makeEvent('repayment_received', { data: { amountMinor: 1_000_000, reference: 'GC-1' } }),
        makeEvent('payment_reminder', {
          data: { reminder: 'overdue', dueDate: '2026-03-15', sinceDate: '2026-02-15', amountMinor: 945_596 },
        }),
        makeEvent('payment_reminder', {
          data: {
            reminder: 'before_due',
            dueDate: '2026-02-15',
            sinceDate: '2026-02-15',
            amountMinor: 945_596,
          },
        }),
      ],
    });
    await screen.findByText('We received your payment of ₱10,000.00. Reference: GC-1.');
    expect(
      screen.getByText('We sent you a payment reminder by SMS: ₱9,455.96 past due since Feb 15, 2026.'),
    ).toBeTruthy();
    expect(
      screen.getByText('We sent you a payment reminder by SMS: ₱9,455.96 due on Feb 15, 2026.'),
    ).toBeTruthy();
    expect(screen.getByText('Your loan is paid in full and closed. Thank you!')).toBeTruthy();
    expect(
      screen.getByText('Your payment of ₱10,000.00 (reference GC-1) was reversed: Bounced cheque'),
    ).toBeTruthy();
    expect(screen.getByText('Your loan was reopened: Bounced cheque')).toBeTruthy();
  });

  it('shows the first six payments on a phone and the rest on request', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({
      number: i + 1,
      dueDate: `2026-${String(i + 1).padStart(2, '0')}-15`,
      paymentMinor: 945_596,
      principalMinor: 745_596,
      interestMinor: 200_000,
      balanceMinor: 0,
    }));
    showWallet(approvedWallet({ schedule: rows }));
    const schedule = await screen.findByRole('region', { name: 'Repayment schedule' });
    expect(within(schedule).getAllByRole('listitem')).toHaveLength(6);
    await userEvent.click(within(schedule).getByRole('button', { name: 'Show all 12 payments' }));
    expect(within(schedule).getAllByRole('listitem')).toHaveLength(12);
    expect(within(schedule).getByText('Dec 15, 2026')).toBeTruthy();
    await userEvent.click(within(schedule).getByRole('button', { name: 'Show fewer' }));
    expect(within(schedule).getAllByRole('listitem')).toHaveLength(6);
  });

  it('polls every 30 s while a withdrawal is in processing, so "Paid" shows up by itself', async () => {
    let paid = false;
    const processing = approvedWallet({
      inProcessing: true,
      balance: { approvedMinor: 10_000_000, withdrawnMinor: 500_000, availableMinor: 9_500_000 },
      disbursements: [makeDisbursement()],
    });
    const done = approvedWallet({
      balance: processing.balance,
      disbursements: [makeDisbursement({ status: 'paid', reference: 'REF-1' })],
      history: [makeEvent('disbursement_paid', { data: { amountMinor: 500_000, reference: 'REF-1' } })],
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { fetchMock } = showWallet(() => (paid ? done : processing));
    await screen.findByText('In Processing');
    const walletCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/wallet').length;
    expect(walletCalls()).toBe(1);

    paid = true;
    await act(async () => vi.advanceTimersByTime(29_000));
    expect(walletCalls()).toBe(1);
    await act(async () => vi.advanceTimersByTime(1_500));
    await waitFor(() => expect(walletCalls()).toBe(2));
    expect(await screen.findByText('Paid')).toBeTruthy();
    expect(screen.queryByText('In Processing')).toBeNull();
    expect(screen.getByText('Your withdrawal of ₱5,000.00 was paid. Reference: REF-1.')).toBeTruthy();

    // Nothing in processing any more: no more polling.
    await act(async () => vi.advanceTimersByTime(90_000));
    expect(walletCalls()).toBe(2);
  });
});

describe('wallet history', () => {
  it('says what staff changed, newest first, with the time in Manila', async () => {
    showWallet(
      approvedWallet({
        history: [
          makeEvent('disbursement_failed', {
            message: 'Account closed',
            data: { amountMinor: 200_000 },
            createdAt: '2025-03-05T16:30:00.000Z',
          }),
          makeEvent('bank_changed', { data: { bankName: 'BPI', accountNumberLast4: '4321' } }),
          makeEvent('terms_changed', {
            message: 'Agreed by phone',
            data: {
              amountMinor: 12_000_000,
              termMonths: 12,
              monthlyPaymentMinor: 1_134_715,
              previousAmountMinor: 10_000_000,
              previousTermMonths: 6,
            },
          }),
          makeEvent('on_hold', { message: 'Please send a clearer ID' }),
          makeEvent('credit_score_changed', { data: { creditScore: 640 } }),
          makeEvent('approved', { data: { approvedAmountMinor: 10_000_000, creditScore: 500 } }),
          makeEvent('message', { message: 'Welcome aboard' }),
          makeEvent('password_reset'),
          // A newer server's kind, in a tab opened before the upgrade.
          makeEvent('something_new' as BorrowerEventKind),
        ],
      }),
    );
    const history = await screen.findByRole('region', { name: 'Updates' });
    const texts = within(history)
      .getAllByTestId('history-text')
      .map((node) => node.textContent);
    expect(texts).toEqual([
      'Your withdrawal of ₱2,000.00 failed: Account closed. The amount is available again.',
      'Your payout account was changed to BPI •••• 4321.',
      'Your loan terms were changed to ₱120,000.00 over 12 months (₱11,347.15 a month).',
      'Your loan was put on hold: Please send a clearer ID',
      'Your credit score was changed to 640.',
      'Your loan of ₱100,000.00 was approved. Credit score: 500.',
      'Message from our staff: Welcome aboard',
      'Your password was reset at your request. Choose a new one with “Forgot password?” on the login page, using the code we sent to your phone.',
      'Your loan was updated.',
    ]);
    expect(
      within(history).getByText('Before: ₱100,000.00 over 6 months. Note: Agreed by phone'),
    ).toBeTruthy();
    // 16:30 UTC on 5 March is half past midnight on 6 March in Manila.
    expect(within(history).getByText(/Mar 6, 2025,? 12:30\sAM/)).toBeTruthy();
  });

  it('translates the sentences', async () => {
    const { default: i18n } = await import('../../../lib/i18n');
    await i18n.changeLanguage('km');
    showWallet(
      approvedWallet({ history: [makeEvent('credit_score_changed', { data: { creditScore: 640 } })] }),
    );
    expect(await screen.findByText('ពិន្ទុឥណទានរបស់អ្នកត្រូវបានប្ដូរទៅ 640។')).toBeTruthy();
  });
});
