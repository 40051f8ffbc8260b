import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emptyAllocation } from '../../../../domain/loan/repayments/ledger';
import type { LoanLedgerDto } from '../../../../domain/schemas/repayments';
import { defaultSettings, errorBody, mockApi, sentRequests, stub } from '../../../test/render';
import {
  finance,
  makeListItem,
  makeProfile,
  officer,
  renderBackOffice,
  staffBase,
} from '../../../test/staff';

const loanId = '00000000-0000-4000-8000-00000000c0de';
const loanNumber = 'HL-26-000042';
const profile = makeProfile(
  makeListItem({ id: loanId, loanNumber, fullName: 'Lorna Dizon', phone: '09175550101', status: 'approved' }),
);

function makeLedger(overrides: Partial<LoanLedgerDto> = {}): LoanLedgerDto {
  return {
    loanId,
    loanNumber,
    status: 'approved',
    closedAt: null,
    position: {
      asOf: '2026-03-20',
      startDate: '2026-01-10',
      principalPaidOutMinor: 5_000_000,
      outstandingPrincipalMinor: 4_200_000,
      interestDueMinor: 0,
      interestAccruedMinor: 27_500,
      lateChargesDueMinor: 1_250,
      paidAheadMinor: 0,
      overpaidMinor: 0,
      creditMinor: 0,
      refundedMinor: 0,
      payoffMinor: 4_228_750,
      amountDueNowMinor: 393_880,
      levelPaymentMinor: 892_630,
      nextPayment: { number: 3, dueDate: '2026-04-10', amountMinor: 892_630 },
      daysPastDue: 10,
      overdueMinor: 392_630,
      graceDays: 3,
      lateChargeMonthlyBp: 100,
      schedule: [
        {
          number: 1,
          dueDate: '2026-02-10',
          paymentMinor: 892_630,
          principalMinor: 792_630,
          interestMinor: 100_000,
          balanceMinor: 4_207_370,
          paidMinor: 892_630,
          unpaidMinor: 0,
          status: 'paid',
          daysPastDue: 0,
          settledEarlyOn: null,
        },
        {
          number: 2,
          dueDate: '2026-03-10',
          paymentMinor: 892_630,
          principalMinor: 808_483,
          interestMinor: 84_147,
          balanceMinor: 3_398_887,
          paidMinor: 500_000,
          unpaidMinor: 392_630,
          status: 'overdue',
          daysPastDue: 10,
          settledEarlyOn: null,
        },
      ],
    },
    repayments: [
      {
        id: '00000000-0000-4000-8000-0000000000e1',
        amountMinor: 1_392_630,
        receivedOn: '2026-02-09',
        channel: 'bank_transfer',
        reference: 'BDO-7781',
        reversed: false,
        allocation: { ...emptyAllocation(), interestMinor: 184_147, principalMinor: 1_208_483 },
        source: 'staff',
        recordedBy: 'fiona',
        recordedAt: '2026-02-09T03:00:00.000Z',
        reversal: null,
      },
      {
        id: '00000000-0000-4000-8000-0000000000e2',
        amountMinor: 300_000,
        receivedOn: '2026-02-15',
        channel: 'bank_transfer',
        reference: 'BDO-9000',
        reversed: true,
        allocation: null,
        source: 'staff',
        recordedBy: 'fiona',
        recordedAt: '2026-02-15T03:00:00.000Z',
        reversal: {
          reason: 'Bounced cheque',
          reversedBy: 'adele',
          reversedAt: '2026-02-16T04:00:00.000Z',
        },
      },
    ],
    ...overrides,
  };
}

const settings = {
  ...defaultSettings(),
  paymentChannels: [
    { code: 'bank_transfer', name: 'Bank transfer', accountDetails: null, instructions: null },
    { code: 'gcash', name: 'GCash', accountDetails: null, instructions: null },
  ],
};

const reversedId = '00000000-0000-4000-8000-0000000000e1';

describe('the staff loan page', { timeout: 20_000 }, () => {
  it('shows the position, the schedule with each state, and the ledger with allocation and reversal', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/settings': { body: settings },
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, { body: makeLedger() }),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    expect(await screen.findByRole('heading', { name: `Loan ${loanNumber}` })).toBeTruthy();
    expect(await screen.findByText('Lorna Dizon')).toBeTruthy();
    expect(screen.getByText('09175550101')).toBeTruthy();

    const position = screen.getByRole('region', { name: 'Position today' });
    expect(within(position).getByText('₱50,000.00')).toBeTruthy();
    expect(within(position).getByText('₱42,287.50')).toBeTruthy();
    expect(within(position).getByText('Days past due: 10')).toBeTruthy();
    expect(within(position).getByText('due Apr 10, 2026')).toBeTruthy();
    // The one figure that brings the loan up to date, as the borrower and the reminders see it (issue #32).
    const dueNow = within(position)
      .getByText('Due now, to be up to date')
      .closest('[data-testid]') as HTMLElement;
    expect(within(dueNow).getByText('₱3,938.80')).toBeTruthy();

    const schedule = screen.getByRole('table', { name: 'Repayment schedule' });
    const rows = within(schedule).getAllByRole('row');
    expect(within(rows[1]!).getByText('Paid')).toBeTruthy();
    expect(within(rows[2]!).getByText('Overdue · 10 days')).toBeTruthy();
    expect(within(rows[2]!).getByText('₱3,926.30')).toBeTruthy();

    const ledger = screen.getByRole('table', { name: 'Repayments received' });
    const applied = within(ledger).getByText('BDO-7781').closest('tr') as HTMLElement;
    expect(within(applied).getByTestId('allocation').textContent).toBe(
      'Interest ₱1,841.47Principal ₱12,084.83',
    );
    expect(within(applied).getByText('Bank transfer')).toBeTruthy();
    expect(within(applied).getByText('fiona')).toBeTruthy();
    const reversed = within(ledger).getByText('BDO-9000').closest('tr') as HTMLElement;
    expect(within(reversed).getByText('Reversed')).toBeTruthy();
    expect(within(reversed).getByText('Bounced cheque')).toBeTruthy();
    expect(within(reversed).getByText(/^By adele, Feb 16, 2026/)).toBeTruthy();
    expect(within(reversed).getByText('₱3,000.00').style.textDecoration).toBe('line-through');

    // Statement of account in the reader's language.
    expect(screen.getByRole('link', { name: 'Download statement (PDF)' }).getAttribute('href')).toBe(
      `/api/staff/loans/${loanId}/statement.pdf?lang=en`,
    );
  });

  it('an officer sees neither Record repayment nor Reverse', async () => {
    mockApi({
      ...staffBase(officer),
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, { body: makeLedger() }),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    await screen.findByText('BDO-7781');
    expect(screen.queryByRole('button', { name: 'Record repayment' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for / })).toBeNull();
  });

  it('finance records a repayment: the body the API expects, a server error under its field, then success', async () => {
    let recorded = 0;
    const fetchMock = mockApi({
      ...staffBase(finance),
      'GET /api/settings': { body: settings },
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, () => ({
        body:
          recorded < 2
            ? makeLedger()
            : makeLedger({ status: 'closed', closedAt: '2026-03-20T05:00:00.000Z' }),
      })),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
      ...stub('POST /api/staff/loans/:id/repayments', { id: loanId }, () => {
        recorded += 1;
        return recorded === 1
          ? {
              status: 409,
              body: errorBody(
                'REPAYMENT_REFERENCE_USED',
                'This reference has already been recorded for this payment channel.',
                { fields: { reference: { code: 'REPAYMENT_REFERENCE_USED', message: 'used' } } },
              ),
            }
          : { status: 201, body: { id: 'r-new', loanStatus: 'closed' } };
      }),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Record repayment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Repayment' });
    // Today in the lender's time zone (the ledger's asOf) is the default, and the latest date allowed.
    const date = within(dialog).getByLabelText(/^Date received/) as HTMLInputElement;
    expect(date.value).toBe('2026-03-20');
    expect(date.max).toBe('2026-03-20');

    // Nothing typed: each problem under its own field, nothing sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record' }));
    expect(
      await within(dialog).findByText(
        'Enter an amount greater than zero, in pesos with at most two decimals.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('Please choose one of the payment channels.')).toBeTruthy();
    expect(within(dialog).getByText('A transfer reference is required.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/^Amount received/), '42,287.50');
    await userEvent.click(within(dialog).getByRole('textbox', { name: /^Channel/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'GCash' }));
    await userEvent.type(within(dialog).getByLabelText(/^Payment reference/), ' GC-123 ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record' }));

    // The server's refusal is shown under the reference, and the modal stays open.
    const reference = within(dialog).getByLabelText(/^Payment reference/);
    await waitFor(() => expect(reference.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = reference.getAttribute('aria-describedby') ?? '';
    const errorId = describedBy.split(' ').find((id) => id.endsWith('-error')) ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe(
      'This reference has already been recorded for this payment channel.',
    );
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await userEvent.clear(reference);
    await userEvent.type(reference, 'GC-124');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record' }));
    expect(await screen.findByText(`Loan ${loanNumber} is paid in full and closed.`)).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      {
        url: `/api/staff/loans/${loanId}/repayments`,
        body: { amount: '42,287.50', receivedOn: '2026-03-20', channel: 'gcash', reference: 'GC-123' },
      },
      {
        url: `/api/staff/loans/${loanId}/repayments`,
        body: { amount: '42,287.50', receivedOn: '2026-03-20', channel: 'gcash', reference: 'GC-124' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The ledger is read again: the page shows the loan closed, and no more Record repayment.
    expect(await screen.findByText('Closed on Mar 20, 2026')).toBeTruthy();
    expect(screen.getByTestId('loan-status').textContent).toBe('Closed');
    expect(screen.queryByRole('button', { name: 'Record repayment' })).toBeNull();
  });

  it('money held for the borrower: shown, and finance records its refund (issue #31)', async () => {
    const held = makeLedger({
      status: 'closed',
      closedAt: '2026-03-20T05:00:00.000Z',
      position: { ...makeLedger().position, payoffMinor: 0, overpaidMinor: 25_000, creditMinor: 25_000 },
    });
    const fetchMock = mockApi({
      ...staffBase(finance),
      'GET /api/settings': { body: settings },
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, { body: held }),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
      ...stub(
        'POST /api/staff/loans/:id/refunds',
        { id: loanId },
        {
          status: 400,
          body: errorBody('REPAYMENT_REFERENCE_USED', 'This reference has already been recorded.', {
            fields: { reference: { code: 'REPAYMENT_REFERENCE_USED', message: 'used' } },
          }),
        },
      ),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    const position = await screen.findByRole('region', { name: 'Position today' });
    expect(await within(position).findByText('Held for the borrower')).toBeTruthy();
    expect(within(position).getByText('Received above the payoff: to be sent back')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send back money held for the borrower' });
    // The whole credit by default; the reference is required.
    expect((within(dialog).getByLabelText(/^Amount sent back/) as HTMLInputElement).value).toBe('250.00');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    expect(sentRequests(fetchMock)).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/^Transfer reference/), 'GC-R-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record refund' }));
    expect(
      await within(dialog).findByText('This reference has already been recorded for this payment channel.'),
    ).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      { url: `/api/staff/loans/${loanId}/refunds`, body: { amount: '250.00', reference: 'GC-R-1' } },
    ]);
  });

  it('an officer sees money held but cannot refund it', async () => {
    mockApi({
      ...staffBase(officer),
      ...stub(
        'GET /api/staff/loans/:id/ledger',
        { id: loanId },
        { body: makeLedger({ position: { ...makeLedger().position, creditMinor: 25_000 } }) },
      ),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    expect(await screen.findByText('Held for the borrower')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });

  it('refuses a date in the future without asking the server', async () => {
    const fetchMock = mockApi({
      ...staffBase(finance),
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, { body: makeLedger() }),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Record repayment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Record Repayment' });
    await userEvent.type(within(dialog).getByLabelText(/^Amount received/), '100');
    const date = within(dialog).getByLabelText(/^Date received/);
    await userEvent.clear(date);
    await userEvent.type(date, '2026-03-21');
    await userEvent.type(within(dialog).getByLabelText(/^Payment reference/), 'R-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Record' }));
    expect(await within(dialog).findByText('The date received cannot be in the future.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);
  });

  it('Reverse needs a reason, then posts it and refreshes the ledger', async () => {
    let reversed = false;
    const ledger = makeLedger();
    const fetchMock = mockApi({
      ...staffBase(finance),
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, () => ({
        body: reversed
          ? makeLedger({
              repayments: ledger.repayments.map((r, i) =>
                i === 0
                  ? {
                      ...r,
                      reversed: true,
                      allocation: null,
                      reversal: {
                        reason: 'Entered twice',
                        reversedBy: 'fiona',
                        reversedAt: '2026-03-20T05:00:00.000Z',
                      },
                    }
                  : r,
              ),
            })
          : ledger,
      })),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
      ...stub('POST /api/staff/repayments/:id/reverse', { id: reversedId }, () => {
        reversed = true;
        return { body: { id: '00000000-0000-4000-8000-0000000000e1', loanStatus: 'approved' } };
      }),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    // Only the row not yet reversed can be reversed.
    await screen.findByText('BDO-9000');
    expect(screen.queryByRole('button', { name: 'Actions for BDO-9000' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for BDO-7781' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Reverse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse Repayment' });
    expect(
      within(dialog).getByText(/Reverse ₱13,926.30 received on Feb 9, 2026 \(reference BDO-7781\)/),
    ).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Reverse' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/^Reason for reversal/), 'Entered twice');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reverse' }));
    expect(await screen.findByText('Repayment BDO-7781 reversed.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      {
        url: '/api/staff/repayments/00000000-0000-4000-8000-0000000000e1/reverse',
        body: { reason: 'Entered twice' },
      },
    ]);
    expect(await screen.findByText('Entered twice')).toBeTruthy();
  });

  it('a repayment someone else already reversed: the message as a toast, the dialog closes, the ledger is re-read', async () => {
    let ledgerReads = 0;
    mockApi({
      ...staffBase(finance),
      ...stub('GET /api/staff/loans/:id/ledger', { id: loanId }, () => {
        ledgerReads += 1;
        return { body: makeLedger() };
      }),
      ...stub('GET /api/staff/applications/:id', { id: loanId }, { body: profile }),
      ...stub(
        'POST /api/staff/repayments/:id/reverse',
        { id: reversedId },
        {
          status: 409,
          body: errorBody('REPAYMENT_ALREADY_REVERSED', 'This repayment has already been reversed.'),
        },
      ),
    });
    renderBackOffice(`/admin/loans/${loanId}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for BDO-7781' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Reverse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse Repayment' });
    await userEvent.type(within(dialog).getByLabelText(/^Reason for reversal/), 'Entered twice');
    const before = ledgerReads;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reverse' }));
    expect(await screen.findByText('This repayment has already been reversed.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(ledgerReads).toBeGreaterThan(before));
  });
});
