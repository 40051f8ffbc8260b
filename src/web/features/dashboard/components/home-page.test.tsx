import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorBody, mockApi } from '../../../test/render';
import {
  finance,
  makePortfolio,
  makeSummary,
  officer,
  renderBackOffice,
  staffBase,
} from '../../../test/staff';

const card = (id: string) => screen.getByTestId(`card-${id}`);

const PORTFOLIO = 'GET /api/staff/dashboard/portfolio';

describe('Home Page Summary', { timeout: 20_000 }, () => {
  it('shows the ten figures from the server, "N/A" where there is none', async () => {
    mockApi({
      ...staffBase(officer),
      [PORTFOLIO]: { body: makePortfolio() },
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
          openComplaints: 4,
          medianResolveSeconds: 3 * 86_400 + 7_200,
        }),
      },
    });
    renderBackOffice('/admin/home');
    expect(await screen.findByRole('heading', { name: 'Home Page Summary' })).toBeTruthy();
    // The cards are laid out while the figures load; wait for the figures.
    await within(await screen.findByTestId('card-registeredToday')).findByText('3');
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
      openComplaints: ['Open Complaints', '4'],
      medianResolve: ['Median Time to Resolve', '3.1 d'],
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

  it('lays the cards and the chart out while the figures load, with no figure shown before it is known', async () => {
    let answer: (() => void) | undefined;
    const loaded = new Promise<void>((resolve) => {
      answer = resolve;
    });
    mockApi({
      ...staffBase(officer),
      [PORTFOLIO]: { body: makePortfolio() },
      'GET /api/staff/dashboard': async () => {
        await loaded;
        return { body: makeSummary({ registeredToday: 7 }) };
      },
    });
    renderBackOffice('/admin/home');
    const waiting = await screen.findByTestId('card-registeredToday');
    expect(within(waiting).getByText('Registered Today')).toBeTruthy();
    expect(within(waiting).queryByText(/\d/)).toBeNull();
    expect(screen.getByRole('heading', { name: 'Loan Status Overview' })).toBeTruthy();
    expect(screen.getAllByRole('status').length).toBeGreaterThan(0);
    answer?.();
    await within(card('registeredToday')).findByText('7');
  });

  it('says honestly that there is nothing to chart yet', async () => {
    mockApi({
      ...staffBase(finance),
      'GET /api/staff/dashboard': { body: makeSummary() },
      [PORTFOLIO]: { body: makePortfolio() },
    });
    renderBackOffice('/admin/home');
    expect((await screen.findByTestId('chart-empty')).textContent).toContain('No loan applications yet');
    expect(within(card('avgLoan')).getByText('N/A')).toBeTruthy();
    // No complaint resolved yet: no median to show.
    expect(within(card('medianResolve')).getByText('N/A')).toBeTruthy();
  });

  it('Refresh reads the figures again', async () => {
    let total = 1;
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/dashboard': () => ({ body: makeSummary({ totalLoans: total, pendingLoans: total }) }),
      [PORTFOLIO]: () => ({ body: makePortfolio({ overdueLoans: total }) }),
    });
    renderBackOffice('/admin/home');
    await waitFor(() => expect(within(card('totalLoans')).getByText('1')).toBeTruthy());
    await waitFor(() => expect(within(card('overdueLoans')).getByText('1')).toBeTruthy());
    total = 2;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(within(card('totalLoans')).getByText('2')).toBeTruthy());
    await waitFor(() => expect(within(card('overdueLoans')).getByText('2')).toBeTruthy());
  });

  it('shows the loan book: outstanding principal, collected and fees this month, overdue loans and PAR30', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/dashboard': { body: makeSummary({ totalLoans: 4 }) },
      [PORTFOLIO]: {
        body: makePortfolio({
          outstandingPrincipalMinor: 123_456_789,
          collectedThisMonthMinor: 4_500_050,
          feesThisMonthMinor: 75_000,
          overdueLoans: 1234,
          par30Bp: 1234,
        }),
      },
    });
    renderBackOffice('/admin/home');
    const section = await screen.findByRole('region', { name: 'Loan Book' });
    await within(section).findByTestId('card-par30');
    const expected: Record<string, [string, string]> = {
      outstandingPrincipal: ['Outstanding Principal', '₱1,234,567.89'],
      collectedThisMonth: ['Collected This Month', '₱45,000.50'],
      feesThisMonth: ['Fees This Month', '₱750.00'],
      overdueLoans: ['Overdue Loans', '1,234'],
      par30: ['PAR30', '12.34%'],
    };
    for (const [id, [label, value]] of Object.entries(expected)) {
      expect(within(card(id)).getByText(label)).toBeTruthy();
      expect(within(card(id)).getByText(value)).toBeTruthy();
    }
    expect(within(section).getByText(/^As of Nov 23, 2026\./)).toBeTruthy();
    // The ten application figures are still there.
    expect(within(card('totalLoans')).getByText('4')).toBeTruthy();
  });

  it('a failed loan book read says so in its own section, with Try again; the rest still shows', async () => {
    let fail = true;
    mockApi({
      ...staffBase(finance),
      'GET /api/staff/dashboard': { body: makeSummary({ totalLoans: 7 }) },
      [PORTFOLIO]: () =>
        fail
          ? { status: 500, body: errorBody('INTERNAL', 'Something went wrong') }
          : { body: makePortfolio({ par30Bp: 5 }) },
    });
    renderBackOffice('/admin/home');
    const section = await screen.findByRole('region', { name: 'Loan Book' });
    const alert = await within(section).findByRole('alert');
    expect(within(card('totalLoans')).getByText('7')).toBeTruthy();
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByText('0.05%')).toBeTruthy();
    expect(within(section).queryByRole('alert')).toBeNull();
  });

  it.each([
    ['en', 'Philippine Standard Time'],
    ['fil', 'Standard na Oras sa Pilipinas'],
    ['zh', '菲律宾标准时间'],
    ['km', 'ហ្វីលីពីន'],
  ] as const)(
    'names the time zone of "today" by its place in %s, never "Asia/Manila"',
    async (language, place) => {
      window.localStorage.setItem('hiram.lang', language);
      const { default: i18n } = await import('../../../lib/i18n');
      await i18n.changeLanguage(language);
      mockApi({
        ...staffBase(officer),
        [PORTFOLIO]: { body: makePortfolio() },
        'GET /api/staff/dashboard': { body: makeSummary({ timeZone: 'Asia/Manila' }) },
      });
      renderBackOffice('/admin/home');
      const note = await screen.findByText((text) => text.includes(place));
      expect(note.textContent).not.toContain('Asia/Manila');
      expect(note.textContent).not.toContain('timeZone');
    },
  );
});
