import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OverdueListItem, OverduePage } from '../../../../domain/schemas/portfolio';
import { mockApi, stub } from '../../../test/render';
import { columnHeaders, finance, officer, renderBackOffice, staffBase } from '../../../test/staff';

let counter = 0;
function makeOverdue(overrides: Partial<OverdueListItem> = {}): OverdueListItem {
  counter += 1;
  return {
    id: `00000000-0000-4000-a000-${String(counter).padStart(12, '0')}`,
    loanNumber: `HL-${String(counter).padStart(6, '0')}`,
    fullName: 'Ana Santos',
    phone: '09171234567',
    status: 'approved',
    overdueSince: '2026-09-15',
    daysPastDue: 45,
    overdueMinor: 1_785_258,
    outstandingPrincipalMinor: 8_500_000,
    nextDueDate: '2026-11-15',
    ...overrides,
  };
}

const buckets = { '1-30': 12, '31-60': 5, '61-90': 2, '90+': 1 };
const notCapped = { '1-30': false, '31-60': false, '61-90': false, '90+': false };

function overduePage(items: OverdueListItem[], page = 1, total = items.length): OverduePage {
  return {
    items,
    page,
    pageSize: 10,
    total,
    totalCapped: false,
    pageCount: Math.max(1, Math.ceil(total / 10)),
    buckets,
    bucketsCapped: notCapped,
  };
}

const listUrls = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/staff/overdue'));

const segment = (name: RegExp) => screen.getByRole('radio', { name });

describe('Overdue queue', { timeout: 20_000 }, () => {
  it('lists overdue loans with their figures and a link to each loan', async () => {
    const late = makeOverdue({ fullName: 'Ben Cruz', daysPastDue: 45, status: 'on_hold' });
    const grace = makeOverdue({
      fullName: 'Carla Reyes',
      daysPastDue: 6,
      overdueSince: '2026-11-21',
      overdueMinor: 250_000,
      nextDueDate: null,
    });
    mockApi({ ...staffBase(officer), 'GET /api/staff/overdue': { body: overduePage([late, grace]) } });
    renderBackOffice('/admin/overdue');
    expect(await screen.findByRole('heading', { name: 'Overdue Loans' })).toBeTruthy();
    await screen.findByText('Ben Cruz');
    expect(columnHeaders()).toEqual([
      'Loan ID',
      'Name',
      'Phone',
      'Days Past Due',
      'Overdue Since',
      'Amount Overdue',
      'Outstanding Principal',
      'Next Due Date',
      'Status',
    ]);
    // The sidebar has the queue for every staff role.
    expect(screen.getByRole('link', { name: 'Overdue' })).toBeTruthy();

    const lateRow = screen.getByText('Ben Cruz').closest('tr') as HTMLElement;
    expect(within(lateRow).getByRole('link', { name: late.loanNumber }).getAttribute('href')).toBe(
      `/admin/loans/${late.id}`,
    );
    expect(within(lateRow).getByText('45')).toBeTruthy();
    expect(within(lateRow).getByText('Sep 15, 2026')).toBeTruthy();
    expect(within(lateRow).getByText('₱17,852.58')).toBeTruthy();
    expect(within(lateRow).getByText('₱85,000.00')).toBeTruthy();
    expect(within(lateRow).getByText('Nov 15, 2026')).toBeTruthy();
    expect(within(lateRow).getByText('On hold')).toBeTruthy();

    const otherRow = screen.getByText('Carla Reyes').closest('tr') as HTMLElement;
    expect(within(otherRow).getByText('6')).toBeTruthy();
    expect(within(otherRow).getByText('N/A')).toBeTruthy();
  });

  it('shows each bucket’s count and asks the server for the chosen bucket, from page 1', async () => {
    const fetchMock = mockApi({
      ...staffBase(finance),
      ...stub('GET /api/staff/overdue?page=2', {
        body: overduePage([makeOverdue({ fullName: 'Page Two' })], 2, 20),
      }),
      ...stub('GET /api/staff/overdue?bucket=31-60', {
        body: overduePage([makeOverdue({ fullName: 'Forty Days' })], 1, 5),
      }),
      'GET /api/staff/overdue': { body: overduePage([makeOverdue({ fullName: 'Everyone' })], 1, 20) },
    });
    const { router } = renderBackOffice('/admin/overdue?page=2');
    expect(await screen.findByText('Page Two')).toBeTruthy();
    expect((segment(/^All$/) as HTMLInputElement).checked).toBe(true);
    expect(segment(/^1–30 days\s*12$/)).toBeTruthy();
    expect(segment(/^31–60 days\s*5$/)).toBeTruthy();
    expect(segment(/^61–90 days\s*2$/)).toBeTruthy();
    expect(segment(/^Over 90 days\s*1$/)).toBeTruthy();

    await userEvent.click(segment(/^31–60 days/));
    expect(await screen.findByText('Forty Days')).toBeTruthy();
    expect(router.state.location.search).toBe('?bucket=31-60');
    expect((segment(/^31–60 days/) as HTMLInputElement).checked).toBe(true);

    await userEvent.click(segment(/^All$/));
    expect(await screen.findByText('Everyone')).toBeTruthy();
    expect(router.state.location.search).toBe('');
    expect(listUrls(fetchMock)).toEqual([
      '/api/staff/overdue?page=2',
      '/api/staff/overdue?bucket=31-60',
      '/api/staff/overdue',
    ]);
  });

  it('shows a capped bucket count as a lower bound: "1,000+"', async () => {
    mockApi({
      ...staffBase(finance),
      'GET /api/staff/overdue': {
        body: {
          ...overduePage([makeOverdue({ fullName: 'Many' })], 1, 1000),
          totalCapped: true,
          buckets: { ...buckets, '1-30': 1000 },
          bucketsCapped: { ...notCapped, '1-30': true },
        },
      },
    });
    renderBackOffice('/admin/overdue');
    expect(await screen.findByText('Many')).toBeTruthy();
    expect(segment(/^1–30 days\s*1,000\+$/)).toBeTruthy();
    expect(segment(/^31–60 days\s*5$/)).toBeTruthy();
  });

  it('searches by name, phone and loan number within the bucket, back to page 1', async () => {
    const fetchMock = mockApi({
      ...staffBase(officer),
      ...stub('GET /api/staff/overdue?bucket=1-30&page=3', {
        body: overduePage([makeOverdue({ fullName: 'Third Page' })], 3, 25),
      }),
      ...stub('GET /api/staff/overdue?name=ana&phone=0917&q=HL-0001&bucket=1-30', { body: overduePage([]) }),
    });
    const { router } = renderBackOffice('/admin/overdue?bucket=1-30&page=3');
    expect(await screen.findByText('Third Page')).toBeTruthy();
    expect(screen.getByText('Page 3 of 3')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Name'), 'ana');
    await userEvent.type(screen.getByLabelText('Phone'), '0917');
    await userEvent.type(screen.getByLabelText('Loan ID'), 'HL-0001{Enter}');
    expect(await screen.findByText('No results found.')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
    expect(router.state.location.search).toBe('?name=ana&phone=0917&q=HL-0001&bucket=1-30');
    await waitFor(() =>
      expect(listUrls(fetchMock)).toEqual([
        '/api/staff/overdue?bucket=1-30&page=3',
        '/api/staff/overdue?name=ana&phone=0917&q=HL-0001&bucket=1-30',
      ]),
    );
  });
});
