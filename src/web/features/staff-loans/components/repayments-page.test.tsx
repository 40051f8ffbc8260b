import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { repaymentListItem } from '../../../../domain/schemas/payments';
import { mockApi, stub } from '../../../test/render';
import { columnHeaders, officer, pageOf, renderBackOffice, staffBase } from '../../../test/staff';

type Item = z.infer<typeof repaymentListItem>;

let counter = 0;
function makeRepayment(overrides: Partial<Item> = {}): Item {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    loanId: '00000000-0000-4000-8000-00000000c0de',
    loanNumber: 'HL-26-000042',
    fullName: 'Lorna Dizon',
    phone: '09175550101',
    amountMinor: 250_050,
    receivedOn: '2026-03-02',
    channel: 'bank_transfer',
    reference: `BDO-${counter}`,
    source: 'staff',
    recordedAt: '2026-03-04T03:00:00.000Z',
    reversed: false,
    ...overrides,
  };
}

describe('the Repayments list', { timeout: 20_000 }, () => {
  it('shows every column, links the loan, marks reversals', async () => {
    const applied = makeRepayment();
    const reversed = makeRepayment({ reversed: true, source: 'webhook', channel: 'gone' });
    mockApi({ ...staffBase(officer), 'GET /api/staff/repayments': { body: pageOf([applied, reversed]) } });
    const { router } = renderBackOffice('/admin/repayments');
    expect(await screen.findByRole('heading', { name: 'Repayments' })).toBeTruthy();
    await screen.findByText(applied.reference);
    expect(columnHeaders()).toEqual([
      'Received On',
      'Loan ID',
      'Name',
      'Phone',
      'Amount',
      'Channel / Source',
      'Reference',
      'Recorded At',
      'Status',
    ]);
    const first = screen.getByText(applied.reference).closest('tr') as HTMLElement;
    expect(within(first).getByText('Mar 2, 2026')).toBeTruthy();
    expect(within(first).getByText('₱2,500.50')).toBeTruthy();
    expect(within(first).getByText('Bank transfer')).toBeTruthy();
    expect(within(first).getByText('Staff entry')).toBeTruthy();
    expect(within(first).getByText('Applied')).toBeTruthy();
    const second = screen.getByText(reversed.reference).closest('tr') as HTMLElement;
    expect(within(second).getByText('Reversed')).toBeTruthy();
    expect(within(second).getByText('Payment provider')).toBeTruthy();
    // A channel no longer configured shows its code rather than nothing.
    expect(within(second).getByText('gone')).toBeTruthy();

    // The loan number opens the loan page (closed loans are reached this way too).
    await userEvent.click(within(first).getByRole('link', { name: applied.loanNumber }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/loans/${applied.loanId}`));
  });

  it('searches by name, phone and loan number or reference, and pages on the server', async () => {
    const fetchMock = mockApi({
      ...staffBase(officer),
      'GET /api/staff/repayments': { body: pageOf([makeRepayment()], 1, 25) },
      ...stub('GET /api/staff/repayments?page=2', {
        body: pageOf([makeRepayment({ reference: 'PAGE-2' })], 2, 25),
      }),
      ...stub('GET /api/staff/repayments?name=lorna&phone=0917&q=HL-26', {
        body: pageOf([makeRepayment({ reference: 'FOUND-1' })]),
      }),
    });
    const { router } = renderBackOffice('/admin/repayments');
    expect(await screen.findByText('Page 1 of 3')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('PAGE-2')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');

    await userEvent.type(screen.getByRole('searchbox', { name: 'Name' }), 'lorna');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Phone' }), '09x17');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Loan ID or reference' }), 'HL-26{Enter}');
    expect(await screen.findByText('FOUND-1')).toBeTruthy();
    // Searching goes back to page 1.
    expect(router.state.location.search).toBe('?name=lorna&phone=0917&q=HL-26');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(
      '/api/staff/repayments?name=lorna&phone=0917&q=HL-26',
    );
  });
});
