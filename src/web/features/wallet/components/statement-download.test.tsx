import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WalletResponse } from '../../../../domain/schemas/wallet';
import i18n from '../../../lib/i18n';
import { makeUser, mockApi, renderApp, signedInMe } from '../../../test/render';
import { approvedWallet, makeApplication, paidOutWallet } from '../test/fixtures';

function showWallet(wallet: WalletResponse) {
  mockApi({ 'GET /api/me': signedInMe(makeUser()), 'GET /api/wallet': () => ({ body: wallet }) });
  renderApp('/wallet');
}

/** The wallet of a loan paid in full: nothing owed, closed. */
function closedWallet(): WalletResponse {
  const open = paidOutWallet();
  const repayment = open.repayment!;
  const position = repayment.position!;
  return {
    ...open,
    application: makeApplication({ status: 'closed' }),
    repayment: {
      ...repayment,
      closedAt: '2025-05-02T03:00:00.000Z',
      position: {
        ...position,
        payoffMinor: 0,
        amountDueNowMinor: 0,
        nextPayment: null,
        overdueMinor: 0,
        daysPastDue: 0,
        schedule: position.schedule.map((row) => ({
          ...row,
          status: 'paid',
          unpaidMinor: 0,
          daysPastDue: 0,
        })),
      },
    },
  };
}

describe('statement download', () => {
  it('is offered once the loan is paid out, in the current language, as a quiet link', async () => {
    showWallet(paidOutWallet());
    const schedule = await screen.findByRole('region', { name: 'Repayment schedule' });
    const link = within(schedule).getByRole('link', { name: 'Download statement (PDF)' });
    expect(link.getAttribute('href')).toBe('/api/wallet/statement.pdf?lang=en');
    expect(link.hasAttribute('download')).toBe(true);
    expect(link.getAttribute('data-variant')).toBe('subtle');
  });

  it('is prominent in the paid-in-full message of a closed loan', async () => {
    showWallet(closedWallet());
    // Said first, on the card at the top of the wallet (issue #32).
    const card = await screen.findByRole('region', { name: 'Paid in full on May 2, 2025' });
    expect(
      within(card).getByText('Nothing more is owed on this loan. Your statement keeps every payment.'),
    ).toBeTruthy();
    const link = within(card).getByRole('link', { name: 'Download statement (PDF)' });
    expect(link.getAttribute('data-variant')).toBe('filled');
  });

  it('is not offered before the first payout', async () => {
    showWallet(approvedWallet());
    await screen.findByRole('region', { name: 'Repayment schedule' });
    expect(screen.queryByRole('link', { name: 'Download statement (PDF)' })).toBeNull();
  });

  it('asks for the statement in the language the borrower reads the app in', async () => {
    await act(() => i18n.changeLanguage('km'));
    showWallet(closedWallet());
    const link = await screen.findByRole('link', { name: 'ទាញយករបាយការណ៍គណនី (PDF)' });
    expect(link.getAttribute('href')).toBe('/api/wallet/statement.pdf?lang=km');
  });
});
