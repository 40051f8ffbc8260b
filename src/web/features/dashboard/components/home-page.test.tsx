import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../test/render';
import { finance, makeSummary, officer, renderBackOffice, staffBase } from '../../../test/staff';

const card = (id: string) => screen.getByTestId(`card-${id}`);

describe('Home Page Summary', { timeout: 20_000 }, () => {
  it('shows the ten figures from the server, "N/A" where there is none', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/dashboard': {
        body: makeSummary({
          registeredToday: 3,
          registeredTotal: 1250,
          minLoanTodayMinor: null,
          maxLoanTodayMinor: null,
          disbursedTodayMinor: 0,
          approvedLoans: 6,
          pendingLoans: 3,
          rejectedLoans: 1,
          avgLoanMinor: 12_345_600,
          totalLoans: 10,
        }),
      },
    });
    renderBackOffice('/admin/home');
    expect(await screen.findByRole('heading', { name: 'Home Page Summary' })).toBeTruthy();
    await screen.findByTestId('card-registeredToday');
    const expected: Record<string, [string, string]> = {
      registeredToday: ['Registered Today', '3'],
      registeredTotal: ['Registered Total', '1,250'],
      minLoanToday: ['Min Loan Today', 'N/A'],
      maxLoanToday: ['Max Loan Today', 'N/A'],
      disbursedToday: ['Disbursed Today', '₱0.00'],
      approvedLoans: ['Approved Loans', '6'],
      pendingLoans: ['Pending Loans', '3'],
      rejectedLoans: ['Rejected Loans', '1'],
      avgLoan: ['Avg Loan Amount', '₱123,456.00'],
      totalLoans: ['Total Loans', '10'],
    };
    for (const [id, [label, value]] of Object.entries(expected)) {
      expect(within(card(id)).getByText(label)).toBeTruthy();
      expect(within(card(id)).getByText(value)).toBeTruthy();
    }
    expect(screen.getByRole('heading', { name: 'Loan Status Overview' })).toBeTruthy();
    // The legend under the pie: counts and shares of approved / pending / rejected.
    expect(screen.getByText('6 · 60%')).toBeTruthy();
    expect(screen.getByText('3 · 30%')).toBeTruthy();
    expect(screen.getByText('1 · 10%')).toBeTruthy();
    expect(screen.queryByTestId('chart-empty')).toBeNull();
  });

  it('says honestly that there is nothing to chart yet', async () => {
    mockApi({ ...staffBase(finance), 'GET /api/staff/dashboard': { body: makeSummary() } });
    renderBackOffice('/admin/home');
    expect((await screen.findByTestId('chart-empty')).textContent).toContain('No loan applications yet');
    expect(within(card('avgLoan')).getByText('N/A')).toBeTruthy();
  });

  it('Refresh reads the figures again', async () => {
    let total = 1;
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/dashboard': () => ({ body: makeSummary({ totalLoans: total, pendingLoans: total }) }),
    });
    renderBackOffice('/admin/home');
    await waitFor(() => expect(within(card('totalLoans')).getByText('1')).toBeTruthy());
    total = 2;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(within(card('totalLoans')).getByText('2')).toBeTruthy());
  });
});
