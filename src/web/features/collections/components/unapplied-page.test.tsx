import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorBody, type MockTable, mockApi, sentRequests, stub } from '../../../test/render';
import {
  admin,
  chooseRowAction,
  columnHeaders,
  finance,
  makePortfolio,
  makeSummary,
  officer,
  openRowDialog,
  pageOf,
  renderBackOffice,
  rowActionNames,
  rowOf,
  staffBase,
} from '../../../test/staff';
import type { UnappliedPayment } from '../api/unapplied';

let counter = 0;
function makePayment(overrides: Partial<UnappliedPayment> = {}): UnappliedPayment {
  counter += 1;
  return {
    id: `00000000-0000-4000-b000-${String(counter).padStart(12, '0')}`,
    provider: 'bank_transfer',
    providerReference: `GC-${String(counter).padStart(8, '0')}`,
    amountMinor: 150_000,
    receivedAt: '2026-11-20T02:30:00.000Z',
    payerReference: 'HL-999999',
    payerName: 'Ana Santos',
    payerPhone: null,
    memo: null,
    reason: 'unknown_reference',
    earlierAmountMinor: null,
    status: 'open',
    resolvedAt: null,
    resolvedBy: null,
    resolutionNote: null,
    appliedRepaymentId: null,
    appliedLoanNumber: null,
    suggestion: null,
    ...overrides,
  };
}

const LIST = 'GET /api/staff/unapplied-payments';

const listReads = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === '/api/staff/unapplied-payments').length;

/** Each text shows in the row (getByText names the one that is missing). */
function expectRowShows(row: HTMLElement, ...texts: string[]) {
  for (const text of texts) expect(within(row).getByText(text)).toBeTruthy();
}

/** Unapplied Payments as `user` with `payments` listed; `more` answers the page's other requests. */
function openUnapplied(payments: UnappliedPayment[], more: MockTable = {}, user = finance) {
  const fetchMock = mockApi({ ...staffBase(user), [LIST]: { body: pageOf(payments) }, ...more });
  renderBackOffice('/admin/unapplied');
  return fetchMock;
}

describe('Unapplied payments', { timeout: 20_000 }, () => {
  it('lists kept payments with why each was kept and how it was resolved', async () => {
    const open = makePayment({ reason: 'over_payment', payerName: null, amountMinor: 2_500_050 });
    const applied = makePayment({
      reason: 'before_payout',
      status: 'applied',
      resolvedAt: '2026-11-21T03:00:00.000Z',
      resolvedBy: 'fiona',
      appliedLoanNumber: 'HL-000123',
    });
    const returned = makePayment({
      reason: 'loan_not_running',
      status: 'returned',
      resolvedAt: '2026-11-22T03:00:00.000Z',
      resolvedBy: 'adele',
      resolutionNote: 'Sent back by GCash reversal',
    });
    const conflict = makePayment({
      reason: 'reference_conflict',
      amountMinor: 90_000,
      earlierAmountMinor: 150_000,
    });
    openUnapplied([open, applied, returned, conflict]);
    expect(await screen.findByRole('heading', { name: 'Unapplied Payments' })).toBeTruthy();
    await screen.findByText(open.providerReference);
    expect(columnHeaders()).toEqual([
      // When and how much, then the loan it likely belongs to and why it was kept, then the details.
      'Received At',
      'Amount',
      'Suggested Loan',
      'Why Kept',
      'Payer Reference',
      'Payer Name',
      'Provider',
      'Provider Reference',
      'Status',
      'Action',
    ]);
    expect(screen.getByRole('link', { name: 'Unapplied' })).toBeTruthy();

    const openRow = await rowOf(open.providerReference);
    expect(within(openRow).getByText('Over-payment')).toBeTruthy();
    // The provider's channel by its configured name.
    expectRowShows(openRow, 'Bank transfer', '₱25,000.50', 'Nov 20, 2026', 'Open', 'N/A', 'No suggestion');
    expect(await rowActionNames(openRow)).toEqual(['Apply to loan', 'Mark returned']);

    const appliedRow = await rowOf(applied.providerReference);
    expectRowShows(appliedRow, 'Before payout', 'Applied', 'To loan HL-000123', 'By fiona, Nov 21, 2026');
    // A resolved payment suggests nothing.
    expect(within(appliedRow).queryByText('No suggestion')).toBeNull();
    expect(await rowActionNames(appliedRow)).toEqual([]);

    const returnedRow = await rowOf(returned.providerReference);
    expectRowShows(
      returnedRow,
      'Loan not taking repayments',
      'Returned',
      'Sent back by GCash reversal',
      'By adele, Nov 22, 2026',
    );
    expect(await rowActionNames(returnedRow)).toEqual([]);

    // The same provider reference with another amount: both amounts, for finance to check.
    const conflictRow = await rowOf(conflict.providerReference);
    expectRowShows(
      conflictRow,
      'Reference already received with another amount',
      '₱900.00',
      'Earlier delivery: ₱1,500.00',
    );
    expect(await rowActionNames(conflictRow)).toEqual(['Apply to loan', 'Mark returned']);
  });

  it('is not offered to loan officers, and its address sends them home', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/dashboard': { body: makeSummary() },
      'GET /api/staff/dashboard/portfolio': { body: makePortfolio() },
    });
    const { router } = renderBackOffice('/admin/unapplied');
    expect(await screen.findByRole('heading', { name: 'Home Page Summary' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/home');
    expect(screen.getByRole('link', { name: 'Overdue' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Unapplied' })).toBeNull();
  });

  it('applies a payment to the loan typed; a loan that is not found is shown on the field', async () => {
    const payment = makePayment();
    let applied = false;
    const fetchMock = mockApi({
      ...staffBase(admin),
      [LIST]: () => ({
        body: pageOf([
          applied
            ? { ...payment, status: 'applied', resolvedBy: 'adele', appliedLoanNumber: 'HL-26-000123' }
            : payment,
        ]),
      }),
      ...stub('POST /api/staff/unapplied-payments/:id/apply', { id: payment.id }, ({ body }) => {
        const loan = (body as { loan: string }).loan;
        if (loan !== 'hl-26-123')
          return {
            status: 404,
            body: errorBody('LOAN_NOT_FOUND', 'Loan record not found', {
              fields: { loan: { code: 'LOAN_NOT_FOUND', message: 'Loan record not found' } },
            }),
          };
        applied = true;
        return {
          body: {
            id: payment.id,
            status: 'applied',
            repaymentId: 'r-1',
            loanStatus: 'closed',
            loanNumber: 'HL-26-000123',
          },
        };
      }),
    });
    renderBackOffice('/admin/unapplied');
    const dialog = await openRowDialog(
      await rowOf(payment.providerReference),
      'Apply to loan',
      'Apply Payment to Loan',
    );
    expect(within(dialog).getByText('₱1,500.00 from Ana Santos · reference HL-999999')).toBeTruthy();

    // Nothing typed: told on the field, nothing sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    const field = within(dialog).getByLabelText(/^Loan number/);
    expect(await within(dialog).findByText('Loan record not found')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);

    await userEvent.type(field, 'HL-404');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByText('Loan record not found')).toBeTruthy();
    // On the field only: no alert above the buttons, and the modal stays open.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Apply Payment to Loan' })).toBeTruthy();

    await userEvent.clear(field);
    await userEvent.type(field, ' hl-26-123 ');
    // Written any way: the field says which loan number it reads.
    expect(within(dialog).getByText('Reads as loan HL-26-000123')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    // The toast names the loan as stored (the server's answer), not as typed.
    expect(
      await screen.findByText('₱1,500.00 applied to loan HL-26-000123. The loan is now paid in full.'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Apply Payment to Loan' })).toBeNull());
    expect(sentRequests(fetchMock).map((post) => post.body)).toEqual([
      { loan: 'HL-404' },
      { loan: 'hl-26-123' },
    ]);
    expect(await screen.findByText('To loan HL-26-000123')).toBeTruthy();
    expect(listReads(fetchMock)).toBeGreaterThanOrEqual(2);
  });

  it('suggests the likely loan with why: the reference, the payer’s phone, the amount due on a date', async () => {
    const byReference = makePayment({
      payerReference: 'HL26000002',
      suggestion: {
        loanId: 'loan-2',
        loanNumber: 'HL-26-000002',
        fullName: 'Ana Reyes',
        basis: 'reference',
        on: null,
      },
    });
    const byPhone = makePayment({
      payerReference: 'my loan',
      payerPhone: '+63 917 123 4567',
      memo: 'bayad po',
      suggestion: {
        loanId: 'loan-3',
        loanNumber: 'HL-26-000003',
        fullName: 'Pia Cruz',
        basis: 'phone',
        on: null,
      },
    });
    const byAmount = makePayment({
      reason: 'ambiguous_reference',
      payerReference: 'HL-26-000008 HL-26-000009',
      suggestion: {
        loanId: 'loan-4',
        loanNumber: 'HL-26-000004',
        fullName: 'Amado Santos',
        basis: 'amount',
        on: '2026-12-28',
      },
    });
    openUnapplied([byReference, byPhone, byAmount]);

    const referenceRow = await rowOf(byReference.providerReference);
    expect(within(referenceRow).getByRole('link', { name: 'HL-26-000002' }).getAttribute('href')).toBe(
      '/admin/loans/loan-2',
    );
    expect(within(referenceRow).getByText('Ana Reyes')).toBeTruthy();
    expect(within(referenceRow).getByText('Reference matches')).toBeTruthy();
    expect(within(referenceRow).getByRole('button', { name: 'Apply to HL-26-000002' })).toBeTruthy();
    expect(await rowActionNames(referenceRow)).toEqual([
      'Apply to HL-26-000002',
      'Apply to loan',
      'Mark returned',
    ]);

    const phoneRow = await rowOf(byPhone.providerReference);
    expectRowShows(phoneRow, "Payer's phone matches", 'Phone: +63 917 123 4567', 'Message: bayad po');

    const amountRow = await rowOf(byAmount.providerReference);
    expect(within(amountRow).getByText('Reference names more than one loan')).toBeTruthy();
    expect(within(amountRow).getByText('Amount matches the amount due on Dec 28, 2026')).toBeTruthy();
  });

  it('applies a suggestion in one step, still confirmed, with who and why in the dialog', async () => {
    const payment = makePayment({
      payerReference: 'salamat',
      payerPhone: '09171234567',
      suggestion: {
        loanId: 'loan-3',
        loanNumber: 'HL-26-000003',
        fullName: 'Pia Cruz',
        basis: 'phone',
        on: null,
      },
    });
    const fetchMock = openUnapplied([payment], {
      ...stub(
        'POST /api/staff/unapplied-payments/:id/apply',
        { id: payment.id },
        {
          body: {
            id: payment.id,
            status: 'applied',
            repaymentId: 'r-1',
            loanStatus: 'approved',
            loanNumber: 'HL-26-000003',
          },
        },
      ),
    });
    const row = await rowOf(payment.providerReference);
    await userEvent.click(within(row).getByRole('button', { name: 'Apply to HL-26-000003' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply Payment to Loan' });
    expect(within(dialog).getByText('Suggested loan: HL-26-000003 · Pia Cruz')).toBeTruthy();
    expect(within(dialog).getByText("Payer's phone matches")).toBeTruthy();
    expect(within(dialog).getByText(/A suggestion, not a certainty/)).toBeTruthy();
    expect((within(dialog).getByLabelText(/^Loan number/) as HTMLInputElement).value).toBe('HL-26-000003');
    // Nothing is sent until finance confirms.
    expect(sentRequests(fetchMock)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('₱1,500.00 applied to loan HL-26-000003.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      { url: `/api/staff/unapplied-payments/${payment.id}/apply`, body: { loan: 'HL-26-000003' } },
    ]);

    // "Apply to loan" from the menu starts empty, without the suggestion.
    await chooseRowAction(row, 'Apply to loan');
    const plain = await screen.findByRole('dialog', { name: 'Apply Payment to Loan' });
    expect((within(plain).getByLabelText(/^Loan number/) as HTMLInputElement).value).toBe('');
    expect(within(plain).queryByText(/Suggested loan/)).toBeNull();
  });

  it('a payment someone else resolved first: the message as a toast, the dialog closes, the list reloads', async () => {
    const payment = makePayment();
    const fetchMock = openUnapplied([payment], {
      ...stub(
        'POST /api/staff/unapplied-payments/:id/apply',
        { id: payment.id },
        {
          status: 409,
          body: errorBody('UNAPPLIED_PAYMENT_RESOLVED', 'This payment has already been applied or returned.'),
        },
      ),
    });
    const dialog = await openRowDialog(
      await rowOf(payment.providerReference),
      'Apply to loan',
      'Apply Payment to Loan',
    );
    await userEvent.type(within(dialog).getByLabelText(/^Loan number/), 'HL-000123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    const toast = await screen.findByText('This payment has already been applied or returned.');
    expect(toast.closest('.mantine-Notification-root')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Apply Payment to Loan' })).toBeNull());
    await waitFor(() => expect(listReads(fetchMock)).toBe(2));
  });

  it('marks a payment returned with the reason required', async () => {
    const payment = makePayment({ payerName: null, reason: 'loan_not_running' });
    const fetchMock = openUnapplied([payment], {
      ...stub(
        'POST /api/staff/unapplied-payments/:id/return',
        { id: payment.id },
        {
          body: { id: payment.id, status: 'returned', repaymentId: null, loanStatus: null, loanNumber: null },
        },
      ),
    });
    const dialog = await openRowDialog(
      await rowOf(payment.providerReference),
      'Mark returned',
      'Mark Payment Returned',
    );
    expect(within(dialog).getByText('₱1,500.00 from unknown payer · reference HL-999999')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark returned' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/^How and why/), 'Refunded to the payer by GCash');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark returned' }));
    expect(await screen.findByText('₱1,500.00 marked as returned.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      {
        url: `/api/staff/unapplied-payments/${payment.id}/return`,
        body: { reason: 'Refunded to the payer by GCash' },
      },
    ]);
  });
});
