import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../../domain/money';
import type { DisbursementDto, StaffDisbursementItem } from '../../../../domain/schemas/wallet';
import { errorBody, type MockTable, mockApi, sentRequests, stub } from '../../../test/render';
import {
  columnHeaders,
  finance,
  officer,
  openRowDialog,
  pageOf,
  renderBackOffice,
  rowActionNames,
  rowOf,
  staffBase,
} from '../../../test/staff';

const money = (minor: number) => formatMoney(minor, { locale: 'en-PH' });

let counter = 0;
function makePayout(overrides: Partial<StaffDisbursementItem> = {}): StaffDisbursementItem {
  counter += 1;
  return {
    id: `00000000-0000-4000-a000-${String(counter).padStart(12, '0')}`,
    applicationId: '00000000-0000-4000-9000-000000000001',
    loanNumber: `HL-25-${String(500 + counter).padStart(6, '0')}`,
    fullName: 'Ana Santos',
    phone: '09171234567',
    amountMinor: 2_500_000,
    feeMinor: 0,
    netMinor: 2_500_000,
    bankName: 'GCash',
    accountNumberLast4: '7001',
    requestedAt: '2025-03-03T04:15:00.000Z',
    status: 'requested',
    reference: null,
    failureReason: null,
    decidedAt: null,
    decidedBy: null,
    loanStatus: 'approved',
    ...overrides,
  };
}

/** The borrower-side record the server answers after a decision. */
function decided(
  payout: StaffDisbursementItem,
  outcome: Pick<DisbursementDto, 'status'> & Partial<DisbursementDto>,
): DisbursementDto {
  const {
    id,
    amountMinor,
    feeMinor,
    netMinor,
    bankName,
    accountNumberLast4,
    requestedAt,
    reference,
    failureReason,
  } = payout;
  return {
    id,
    amountMinor,
    feeMinor,
    netMinor,
    bankName,
    accountNumberLast4,
    requestedAt,
    reference,
    failureReason,
    decidedAt: '2025-03-03T05:00:00.000Z',
    ...outcome,
  };
}

/** The decisions posted (the audited reveals of the full account are counted by `reveals`). */
function posts(fetchMock: ReturnType<typeof mockApi>) {
  return sentRequests(fetchMock).filter(({ url }) => !url.endsWith('/destination'));
}

function reveals(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/destination'))
    .map(([url]) => String(url));
}

function destinationOf(payout: StaffDisbursementItem) {
  return {
    ...stub(
      'POST /api/staff/disbursements/:id/destination',
      { id: payout.id },
      {
        body: { id: payout.id, bankName: 'GCash', accountNumber: '09171237001' },
      },
    ),
  };
}

/** Disbursements as `user` with `payouts` listed; `more` answers the page's other requests. */
function openDisbursements(payouts: StaffDisbursementItem[], more: MockTable = {}, user = finance) {
  const fetchMock = mockApi({
    ...staffBase(user),
    'GET /api/staff/disbursements': { body: pageOf(payouts) },
    ...more,
  });
  return { ...renderBackOffice('/admin/disbursements'), fetchMock };
}

describe('Disbursements', { timeout: 20_000 }, () => {
  it('shows the SPEC columns, the destination masked to the last 4, reference or failure reason', async () => {
    const requested = makePayout();
    const paid = makePayout({
      status: 'paid',
      reference: 'GC-REF-778812',
      decidedAt: '2025-03-03T05:00:00.000Z',
      decidedBy: 'fina',
    });
    const failed = makePayout({
      status: 'failed',
      failureReason: 'Account closed',
      decidedAt: '2025-03-03T06:30:00.000Z',
      decidedBy: 'frank',
    });
    openDisbursements([requested, paid, failed]);
    expect(await screen.findByRole('heading', { name: 'Disbursements' })).toBeTruthy();
    await rowOf(requested.loanNumber);
    expect(columnHeaders()).toEqual([
      'Loan ID',
      'Name',
      'Phone',
      'Amount',
      'Destination',
      'Requested At',
      'Status',
      'Reference',
      'Action',
    ]);
    const first = await rowOf(requested.loanNumber);
    expect(within(first).getByText('GCash')).toBeTruthy();
    expect(within(first).getByText('•••• 7001')).toBeTruthy();
    expect(within(first).getByText('₱25,000')).toBeTruthy();
    expect(within(first).getByText('Requested')).toBeTruthy();
    expect(await rowActionNames(first)).toContain('Mark Paid');
    expect(await rowActionNames(first)).toContain('Mark Failed');

    const second = await rowOf(paid.loanNumber);
    expect(within(second).getByText('GC-REF-778812')).toBeTruthy();
    // Its receipt, as the borrower sees it (issue #32); a payout not paid has none.
    const receipt = within(second).getByRole('link', {
      name: `Receipt (PDF) of the payout to ${paid.loanNumber}`,
    });
    expect(receipt.getAttribute('href')).toBe(`/api/staff/disbursements/${paid.id}/receipt.pdf?lang=en`);
    expect(within(first).queryByRole('link', { name: /^Receipt/ })).toBeNull();
    // Who marked it and when, under the status (the time of day in the title, in the lender's time zone).
    const statusCell = (row: HTMLElement) => within(row).getAllByRole('cell')[6]!;
    expect(within(statusCell(second)).getByText('by fina · Mar 3, 2025').title).toMatch(/2025/);
    expect(within(statusCell(first)).queryByText(/^by /)).toBeNull();
    expect(within(second).queryByRole('button', { name: /^Mark/ })).toBeNull();
    const third = await rowOf(failed.loanNumber);
    expect(within(third).getByText('Account closed')).toBeTruthy();
    expect(within(third).getByText('Failed')).toBeTruthy();
    expect(within(statusCell(third)).getByText(/^by frank · /)).toBeTruthy();
    // Records are never deleted: there is no delete anywhere.
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull();
  });

  it('officers see the list but cannot decide payouts', async () => {
    const requested = makePayout();
    openDisbursements([requested], {}, officer);
    const row = await rowOf(requested.loanNumber);
    expect(await rowActionNames(row)).not.toContain('Mark Paid');
    // Officers never see the full account.
    expect(within(row).queryByRole('button', { name: 'Show full account' })).toBeNull();
    expect(columnHeaders()).not.toContain('Action');
  });

  it('the status filter searches at once and goes into the query', async () => {
    const { fetchMock, router } = openDisbursements([], {
      ...stub('GET /api/staff/disbursements?status=failed', {
        body: pageOf([makePayout({ status: 'failed' })]),
      }),
    });
    await screen.findByText('No results found.');
    await userEvent.click(screen.getByRole('textbox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed'));
    await screen.findByText('Failed', { selector: '.mantine-Badge-label' });
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/staff/disbursements?status=failed');
  });

  it('Mark Paid needs a transfer reference, then refreshes the list', async () => {
    const requested = makePayout();
    let lists = 0;
    const fetchMock = mockApi({
      ...staffBase(finance),
      'GET /api/staff/disbursements': () => {
        lists += 1;
        return {
          body: pageOf([lists === 1 ? requested : { ...requested, status: 'paid', reference: 'BDO-99812' }]),
        };
      },
      ...stub(
        'POST /api/staff/disbursements/:id/paid',
        { id: requested.id },
        {
          body: decided(requested, { status: 'paid', reference: 'BDO-99812' }),
        },
      ),
      ...destinationOf(requested),
      'GET /api/staff/loans': { body: pageOf([]) },
    });
    renderBackOffice('/admin/disbursements');
    const row = await rowOf(requested.loanNumber);
    const dialog = await openRowDialog(row, 'Mark Paid', 'Mark Paid');
    expect(within(dialog).getByText(/GCash •••• 7001/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark Paid' }));
    expect(await within(dialog).findByText('A transfer reference is required.')).toBeTruthy();
    expect(posts(fetchMock)).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/^Transfer reference/), ' BDO-99812 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark Paid' }));
    expect(
      await screen.findByText(`Payout of ${money(2_500_000)} for loan ${requested.loanNumber} marked paid.`),
    ).toBeTruthy();
    expect(posts(fetchMock)).toEqual([
      { url: `/api/staff/disbursements/${requested.id}/paid`, body: { reference: 'BDO-99812' } },
    ]);
    expect(await screen.findByText('BDO-99812')).toBeTruthy();
  });

  it('a payout with a fee: the list and Mark Paid say what to send, the amount less the fee (issue #31)', async () => {
    const requested = makePayout({ amountMinor: 4_000_000, feeMinor: 90_000, netMinor: 3_910_000 });
    openDisbursements([requested], {
      ...destinationOf(requested),
      'GET /api/staff/loans': { body: pageOf([]) },
    });
    const row = await rowOf(requested.loanNumber);
    expect(within(row).getByText('₱40,000')).toBeTruthy();
    expect(within(row).getByText(`Send ${money(3_910_000)}`)).toBeTruthy();
    const dialog = await openRowDialog(row, 'Mark Paid', 'Mark Paid');
    expect(within(dialog).getByText(`Send ${money(3_910_000)}`)).toBeTruthy();
    expect(within(dialog).getByText(`${money(4_000_000)} less the fee of ${money(90_000)}`)).toBeTruthy();
  });

  it('Mark Failed needs a reason', async () => {
    const requested = makePayout();
    const { fetchMock } = openDisbursements([requested], {
      ...stub(
        'POST /api/staff/disbursements/:id/failed',
        { id: requested.id },
        {
          body: decided(requested, { status: 'failed', failureReason: 'Account closed' }),
        },
      ),
      'GET /api/staff/loans': { body: pageOf([]) },
    });
    const row = await rowOf(requested.loanNumber);
    const dialog = await openRowDialog(row, 'Mark Failed', 'Mark Failed');
    expect(within(dialog).getByText(/returns to the borrower’s available balance/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark Failed' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(posts(fetchMock)).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/^Why did the transfer fail/), 'Account closed');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark Failed' }));
    expect(await screen.findByText(/marked failed\.$/)).toBeTruthy();
    expect(posts(fetchMock)).toEqual([
      { url: `/api/staff/disbursements/${requested.id}/failed`, body: { reason: 'Account closed' } },
    ]);
  });

  it('shows the 409 when someone else already decided the payout', async () => {
    const requested = makePayout();
    openDisbursements([requested], {
      ...destinationOf(requested),
      ...stub(
        'POST /api/staff/disbursements/:id/paid',
        { id: requested.id },
        {
          status: 409,
          body: errorBody(
            'DISBURSEMENT_ALREADY_DECIDED',
            'This disbursement has already been marked paid or failed.',
          ),
        },
      ),
      'GET /api/staff/loans': { body: pageOf([]) },
    });
    const row = await rowOf(requested.loanNumber);
    const dialog = await openRowDialog(row, 'Mark Paid', 'Mark Paid');
    await userEvent.type(within(dialog).getByLabelText(/^Transfer reference/), 'BDO-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark Paid' }));
    const toast = await screen.findByText('This disbursement has already been marked paid or failed.');
    expect((toast.closest('.mantine-Notification-root') as HTMLElement).getAttribute('style')).toContain(
      'red',
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mark Paid' })).toBeNull());
  });

  it('finance reveals the full account on demand in the row, each reveal asked of the server (audited)', async () => {
    const requested = makePayout();
    const other = makePayout({ accountNumberLast4: '4410' });
    const { fetchMock } = openDisbursements([requested, other], {
      ...destinationOf(requested),
    });
    const row = await rowOf(requested.loanNumber);
    expect(within(row).queryByText('09171237001')).toBeNull();
    expect(reveals(fetchMock)).toEqual([]);
    await userEvent.click(within(row).getByRole('button', { name: 'Show full account' }));
    expect(await within(row).findByText('09171237001')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Copy account number' })).toBeTruthy();
    // Only the row asked for is revealed.
    expect(reveals(fetchMock)).toEqual([`/api/staff/disbursements/${requested.id}/destination`]);
    const otherRow = await rowOf(other.loanNumber);
    expect(within(otherRow).getByText('•••• 4410')).toBeTruthy();
    expect(within(otherRow).getByRole('button', { name: 'Show full account' })).toBeTruthy();
  });

  it('Mark Paid shows the full destination, fetched when the dialog opens, with a copy button', async () => {
    const requested = makePayout();
    const { fetchMock } = openDisbursements([requested], {
      ...destinationOf(requested),
    });
    const row = await rowOf(requested.loanNumber);
    expect(reveals(fetchMock)).toEqual([]);
    const dialog = await openRowDialog(row, 'Mark Paid', 'Mark Paid');
    expect(await within(dialog).findByText('09171237001')).toBeTruthy();
    expect(within(dialog).getByText('Send the transfer to')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy account number' })).toBeTruthy();
    expect(reveals(fetchMock)).toEqual([`/api/staff/disbursements/${requested.id}/destination`]);
  });
});
