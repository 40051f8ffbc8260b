import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import { makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';
import { makeApplication, paidOutWallet, pendingWallet } from '../test/fixtures';

const borrower = makeUser();

function showWallet(wallet: WalletResponse) {
  mockApi({
    'GET /api/me': signedInMe(borrower),
    'GET /api/wallet': () => ({ body: wallet }),
  });
  return renderApp('/wallet');
}

type Position = NonNullable<NonNullable<WalletResponse['repayment']>['position']>;

/** paidOutWallet with its position changed. */
function withPosition(change: (p: Position) => Position, overrides: Partial<WalletResponse> = {}) {
  const wallet = paidOutWallet();
  const repayment = wallet.repayment as NonNullable<WalletResponse['repayment']>;
  return {
    ...wallet,
    ...overrides,
    repayment: { ...repayment, position: change(repayment.position as Position) },
  };
}

/** The page's regions in document order, by their accessible names. */
function regionNames(): string[] {
  return screen.getAllByRole('region').map((r) => r.getAttribute('aria-label') ?? labelOf(r));
}
function labelOf(region: HTMLElement): string {
  const id = region.getAttribute('aria-labelledby');
  return (id && document.getElementById(id)?.textContent) || '';
}

describe('the wallet once money is paid out: the state that matters now first (issue #32)', () => {
  it('overdue: a calm, factual card first — days late, one amount with what it covers, how to pay', async () => {
    showWallet(withPosition((p) => ({ ...p, lateChargesDueMinor: 20_000, amountDueNowMinor: 4_170_495 })));
    const card = await screen.findByRole('region', { name: 'Your payment is overdue' });
    expect(regionNames()[0]).toBe('Your payment is overdue');
    expect(within(card).getByTestId('days-late').textContent).toBe('Days late: 10 · since Apr 2, 2025');
    expect(within(card).getByTestId('due-now-amount').textContent).toBe('₱41,704.95');
    const covers = within(card).getByRole('list', { name: 'What it covers' });
    expect(
      within(covers)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Instalment 1, overdue since Apr 2, 2025₱41,504.95', 'Late charges₱200.00']);
    expect(within(card).getByText('Then ₱51,504.95 due on May 2, 2025')).toBeTruthy();
    // No congratulations to a borrower who is late.
    expect(screen.queryByText(/Congratulations/)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Approved' })).toBeNull();
    // "How to pay" takes the borrower (and the focus) to the channels.
    await userEvent.click(within(card).getByRole('button', { name: 'How to pay' }));
    expect(document.activeElement?.id).toBe('how-to-pay-title');
    // The loan card leads with what pays the loan off, not an empty balance to withdraw.
    expect(screen.getByTestId('payoff-today').textContent).toBe('₱92,330.00');
  });

  it('due, still in its grace days: the amount, since when, and the last day without a late charge', async () => {
    showWallet(
      withPosition((p) => ({
        ...p,
        asOf: '2025-04-04',
        daysPastDue: 0,
        overdueMinor: 0,
        lateChargeMonthlyBp: 300,
        schedule: p.schedule.map((row) =>
          row.number === 1 ? { ...row, status: 'part_paid' as const, daysPastDue: 2 } : row,
        ),
      })),
    );
    const card = await screen.findByRole('region', { name: 'Your payment was due on Apr 2, 2025' });
    expect(within(card).getByTestId('due-now-amount').textContent).toBe('₱41,504.95');
    expect(within(card).getByText('Instalment 1, due Apr 2, 2025')).toBeTruthy();
    expect(within(card).getByText('Pay by Apr 5, 2025 to avoid late charges.')).toBeTruthy();
    expect(within(card).queryByTestId('days-late')).toBeNull();
  });

  it('nothing due: the next payment and the one after it', async () => {
    showWallet(
      withPosition((p) => ({
        ...p,
        asOf: '2025-04-12',
        amountDueNowMinor: 0,
        daysPastDue: 0,
        overdueMinor: 0,
        schedule: p.schedule.map((row) =>
          row.number === 1 ? { ...row, status: 'paid' as const, unpaidMinor: 0, daysPastDue: 0 } : row,
        ),
      })),
    );
    const card = await screen.findByRole('region', { name: 'Next payment due May 2, 2025' });
    expect(within(card).getByText('Instalment 2 of 2')).toBeTruthy();
    expect(within(card).getByTestId('next-payment-amount').textContent).toBe('₱51,504.95');
    expect(within(card).getByText(/^Nothing is due today\./)).toBeTruthy();
  });

  it('paid in full: the day, the statement, and money held above the payoff with what was sent back', async () => {
    showWallet(
      withPosition(
        (p) => ({
          ...p,
          amountDueNowMinor: 0,
          payoffMinor: 0,
          daysPastDue: 0,
          overdueMinor: 0,
          nextPayment: null,
          overpaidMinor: 15_000,
          creditMinor: 5_000,
          refundedMinor: 10_000,
          schedule: p.schedule.map((row) => ({ ...row, status: 'paid' as const, unpaidMinor: 0 })),
        }),
        { application: makeApplication({ status: 'closed' }) },
      ),
    );
    // closedAt is set below through the repayment.
    const card = await screen.findByRole('region', { name: /^Paid in full/ });
    expect(regionNames()[0]).toMatch(/^Paid in full/);
    expect(within(card).getByRole('link', { name: 'Download statement (PDF)' })).toBeTruthy();
    expect(within(card).getByTestId('credit-held').textContent).toBe(
      '₱50.00 you paid above what you owed is held for you and will be sent back to you.',
    );
    expect(screen.queryByText('This loan is closed.')).toBeNull();
  });

  it('says the day a closed loan was paid in full, and each refund with its reference', async () => {
    const wallet = withPosition(
      (p) => ({
        ...p,
        amountDueNowMinor: 0,
        payoffMinor: 0,
        nextPayment: null,
        daysPastDue: 0,
        overdueMinor: 0,
        overpaidMinor: 10_000,
        refundedMinor: 10_000,
        schedule: p.schedule.map((row) => ({ ...row, status: 'paid' as const, unpaidMinor: 0 })),
      }),
      { application: makeApplication({ status: 'closed' }) },
    );
    const repayment = wallet.repayment;
    showWallet({
      ...wallet,
      repayment: {
        ...repayment,
        closedAt: '2025-04-20T03:00:00.000Z',
        refunds: [{ amountMinor: 10_000, refundedOn: '2025-04-22', reference: 'GC-REFUND-7' }],
      },
    });
    const card = await screen.findByRole('region', { name: 'Paid in full on Apr 20, 2025' });
    const refunds = within(card).getByRole('list', { name: 'Money sent back to you' });
    expect(
      within(refunds).getByText('₱100.00 sent back to you on Apr 22, 2025 (ref. GC-REFUND-7)'),
    ).toBeTruthy();
    expect(within(card).queryByTestId('credit-held')).toBeNull();
  });
});

describe('waiting for a decision (issue #32)', () => {
  it('tracks submitted → under review → decision with the lender’s review time and what happens next', async () => {
    showWallet(
      pendingWallet({
        application: makeApplication({ status: 'pending', submittedAt: new Date().toISOString() }),
      }),
    );
    const tracker = await screen.findByRole('region', { name: 'Application progress' });
    expect(within(tracker).getByText('Submitted')).toBeTruthy();
    expect(within(tracker).getByText('Under review').getAttribute('aria-current')).toBe('step');
    expect(within(tracker).getByText(/^We usually decide within 1 day: expect our answer by /)).toBeTruthy();
    expect(
      within(tracker).getByText(
        'We will text you the decision. If it is approved, you withdraw from this wallet to your GCash account ending 9876.',
      ),
    ).toBeTruthy();
    // SPEC §4's pending text stays.
    expect(
      screen.getByText('Your loan is pending approval from the Finance Department. Please be patient.'),
    ).toBeTruthy();
  });

  it('past the stated time, says so plainly', async () => {
    showWallet(
      pendingWallet({
        application: makeApplication({ status: 'pending', submittedAt: '2020-01-01T00:00:00.000Z' }),
      }),
    );
    const tracker = await screen.findByRole('region', { name: 'Application progress' });
    expect(within(tracker).getByText(/^This is taking longer than the 1 day we usually need\./)).toBeTruthy();
  });
});
