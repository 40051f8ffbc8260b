import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { annuityPaymentMinor } from '../../../../domain/loan/schedule';
import { formatMoney } from '../../../../domain/money';
import { errorBody, mockApi, stub } from '../../../test/render';
import {
  chooseRowAction,
  columnHeaders,
  finance,
  makeListItem,
  makeProfile,
  officer,
  openApplicationList,
  openRowDialog,
  pageOf,
  renderBackOffice,
  rowActionNames,
  rowOf,
  staffBase,
} from '../../../test/staff';

const money = (minor: number) => formatMoney(minor, { locale: 'en-PH' });
/** Tables show loan amounts without ".00" (they are whole pesos). */
const wholeMoney = (minor: number) => formatMoney(minor, { locale: 'en-PH', omitZeroCents: true });

function requests(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls.map(([url, init]) => `${(init?.method ?? 'GET').toUpperCase()} ${url}`);
}

describe('Pending Loan List', { timeout: 20_000 }, () => {
  it('shows the columns, N/A for missing values and every action for an officer', async () => {
    const item = makeListItem({ fullName: 'Ana Santos', phone: '' });
    openApplicationList('pending', [item]);
    expect(await screen.findByRole('heading', { name: 'Pending Loan List' })).toBeTruthy();
    const row = await rowOf(item.loanNumber);
    expect(columnHeaders()).toEqual([
      'Loan ID',
      'Name',
      'Phone',
      'Amount',
      'Term',
      'Requested At',
      'Status',
      'Action',
    ]);
    expect(within(row).getByText('N/A')).toBeTruthy();
    expect(within(row).getByText(wholeMoney(item.amountMinor))).toBeTruthy();
    expect(within(row).getByText('6 months')).toBeTruthy();
    // 02:30 UTC is 10:30 in Manila.
    expect(within(row).getByText('Mar 1, 2025')).toBeTruthy();
    expect(within(row).getByText('10:30 AM')).toBeTruthy();
    expect(within(row).getByText('Pending')).toBeTruthy();
    // One "Actions" menu per row (it fits at 1280 px and stays on screen on a phone).
    expect(within(row).getByRole('button', { name: `Actions for ${item.loanNumber}` })).toBeTruthy();
    expect(await rowActionNames(row)).toEqual(['View Profile', 'Update Loan', 'Approve', 'Reject']);
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
  });

  it('finance sees the list and profiles but no decision buttons', async () => {
    const item = makeListItem();
    openApplicationList(
      'pending',
      [item],
      {
        ...stub('GET /api/staff/applications/:id', { id: item.id }, { body: makeProfile(item) }),
      },
      { user: finance },
    );
    const row = await rowOf(item.loanNumber);
    expect(await rowActionNames(row)).toContain('View Profile');
    for (const name of ['Update Loan', 'Approve', 'Reject'])
      expect(within(row).queryByRole('button', { name })).toBeNull();
    await chooseRowAction(row, 'View Profile');
    expect(await screen.findByText('Santos Bakery')).toBeTruthy();
    // The product version the loan was signed under (docs/decisions/034).
    expect(screen.getByText('Personal loan · version 1')).toBeTruthy();
    // The signed agreement is a plain download link (no PDF code in the page).
    expect(screen.getByRole('link', { name: 'Signed loan agreement (PDF)' }).getAttribute('href')).toBe(
      `/api/staff/applications/${item.id}/agreement.pdf?lang=en`,
    );
  });

  it('approves with the credit score pre-filled 500 and its rating, then refreshes', async () => {
    const item = makeListItem();
    let approvedBody: unknown;
    let listCalls = 0;
    const fetchMock = mockApi({
      ...staffBase(officer, 1),
      'GET /api/staff/applications/pending': () => {
        listCalls += 1;
        return { body: pageOf(listCalls === 1 ? [item] : []) };
      },
      ...stub('POST /api/staff/applications/:id/approve', { id: item.id }, ({ body }) => {
        approvedBody = body;
        return { body: makeProfile(item, { status: 'approved', creditScore: 620 }) };
      }),
    });
    renderBackOffice('/admin/pending');
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Approve', 'Approve Loan');
    const score = within(dialog).getByLabelText('Credit score') as HTMLInputElement;
    expect(score.value).toBe('500');
    expect(within(dialog).getByTestId('credit-rating').textContent).toBe('Rating: Good');
    await userEvent.clear(score);
    await userEvent.type(score, '620');
    expect(within(dialog).getByTestId('credit-rating').textContent).toBe('Rating: Very Good');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(`Loan ${item.loanNumber} approved.`)).toBeTruthy();
    expect(approvedBody).toEqual({ creditScore: 620 });
    expect(await screen.findByText('No results found.')).toBeTruthy();
    await waitFor(() =>
      expect(requests(fetchMock).filter((r) => r === 'GET /api/staff/pending-count').length).toBeGreaterThan(
        1,
      ),
    );
  });

  it('shows the server’s 409 "already decided" as a red toast and closes the modal', async () => {
    const item = makeListItem();
    openApplicationList(
      'pending',
      [item],
      {
        ...stub(
          'POST /api/staff/applications/:id/approve',
          { id: item.id },
          {
            status: 409,
            body: errorBody('ALREADY_DECIDED', 'This application has already been decided.'),
          },
        ),
      },
      { pendingCount: 1 },
    );
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Approve', 'Approve Loan');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    const toast = await screen.findByText('This application has already been decided.');
    const notification = toast.closest('.mantine-Notification-root') as HTMLElement;
    expect(notification).toBeTruthy();
    expect(notification.getAttribute('style') ?? '').toContain(
      '--notification-color: var(--mantine-color-red-filled)',
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Approve Loan' })).toBeNull());
  });

  it('refuses an out-of-range credit score without calling the server', async () => {
    const item = makeListItem();
    const { fetchMock } = openApplicationList('pending', [item]);
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Approve', 'Approve Loan');
    const score = within(dialog).getByLabelText('Credit score');
    await userEvent.clear(score);
    await userEvent.type(score, '1200');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Please enter a credit score between 0 and 1000.',
    );
    expect(requests(fetchMock).some((r) => r.startsWith('POST'))).toBe(false);
  });

  it('Update Loan recomputes the monthly payment live and offers the nearest allowed amount, never changing it silently', async () => {
    const item = makeListItem({ amountMinor: 10_000_000, termMonths: 6 });
    let sent: unknown;
    openApplicationList('pending', [item], {
      ...stub('GET /api/staff/applications/:id', { id: item.id }, { body: makeProfile(item) }),
      // As the server answers a change the borrower did not ask for: proposed to them (decision 018).
      ...stub('POST /api/staff/applications/pending/:id/terms', { id: item.id }, ({ body }) => {
        sent = body;
        return { body: makeProfile(item, { termsChangePending: true }) };
      }),
    });
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Update Loan', 'Update Loan');
    const amount = within(dialog).getByLabelText('Loan amount') as HTMLInputElement;
    const payment = within(dialog).getByTestId('monthly-payment');
    expect(amount.value).toBe('100,000');
    expect(payment.textContent).toBe(money(annuityPaymentMinor(10_000_000, 6, 200)));

    await userEvent.clear(amount);
    await userEvent.type(amount, '250000');
    expect(payment.textContent).toBe(money(annuityPaymentMinor(25_000_000, 6, 200)));
    await userEvent.click(within(dialog).getByRole('radio', { name: '12 months' }));
    expect(payment.textContent).toBe(money(annuityPaymentMinor(25_000_000, 12, 200)));

    // Issue #32: never changed silently. Below the staff minimum, the field keeps what was typed, says why in
    // SPEC §5's words and offers the nearest allowed amount; taking it is one click.
    await userEvent.clear(amount);
    await userEvent.type(amount, '1234');
    await userEvent.tab();
    expect(amount.value).toBe('1234');
    const offer = within(dialog).getByTestId('amount-offer');
    expect(offer.textContent).toContain('Please enter a valid loan amount and loan period.');
    await userEvent.click(within(offer).getByRole('button', { name: 'Use ₱50,000' }));
    expect(amount.value).toBe('50,000');
    expect(within(dialog).queryByTestId('amount-offer')).toBeNull();
    expect(payment.textContent).toBe(money(annuityPaymentMinor(5_000_000, 12, 200)));
    // Above the maximum, and off the step: offered, not applied; saving it is refused and sends nothing.
    await userEvent.clear(amount);
    await userEvent.type(amount, '3000000');
    await userEvent.tab();
    expect(within(dialog).getByRole('button', { name: 'Use ₱2,000,000' })).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '123456');
    await userEvent.tab();
    expect(amount.value).toBe('123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(sent).toBeUndefined();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use ₱120,000' }));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // The toast says what was done with which terms.
    expect(
      await screen.findByText(
        `New terms for ${item.loanNumber} sent to the borrower: ₱120,000.00 over 12 months. They apply once the borrower accepts them.`,
      ),
    ).toBeTruthy();
    expect(sent).toEqual({ amount: 120_000, termMonths: 12 });
  });

  it('Update Loan keeps a small loan’s amount while its term changes; a changed amount is offered the nearest allowed', async () => {
    // ₱10,000: the borrower's range allows it, the staff minimum is ₱50,000.
    const item = makeListItem({ amountMinor: 1_000_000, termMonths: 6 });
    let sent: unknown;
    openApplicationList('pending', [item], {
      ...stub('GET /api/staff/applications/:id', { id: item.id }, { body: makeProfile(item) }),
      // As the server answers a change the borrower did not ask for: proposed to them (decision 018).
      ...stub('POST /api/staff/applications/pending/:id/terms', { id: item.id }, ({ body }) => {
        sent = body;
        return { body: makeProfile(item, { termsChangePending: true }) };
      }),
    });
    const dialog = await openRowDialog(await rowOf(item.loanNumber), 'Update Loan', 'Update Loan');
    const amount = within(dialog).getByLabelText('Loan amount') as HTMLInputElement;
    const payment = within(dialog).getByTestId('monthly-payment');
    expect(amount.value).toBe('10,000');
    await userEvent.click(within(dialog).getByRole('radio', { name: '12 months' }));
    // Leaving the field unchanged does not raise it to the staff minimum.
    await userEvent.click(amount);
    await userEvent.tab();
    expect(amount.value).toBe('10,000');
    expect(payment.textContent).toBe(money(annuityPaymentMinor(1_000_000, 12, 200)));

    // Another amount below the staff minimum is offered the minimum, not changed; back to the current one,
    // nothing is offered.
    await userEvent.clear(amount);
    await userEvent.type(amount, '20000');
    expect(payment.textContent).toBe('—');
    await userEvent.tab();
    expect(amount.value).toBe('20000');
    expect(within(dialog).getByRole('button', { name: 'Use ₱50,000' })).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '10000');
    await userEvent.tab();
    expect(amount.value).toBe('10000');
    expect(within(dialog).queryByTestId('amount-offer')).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        `New terms for ${item.loanNumber} sent to the borrower: ₱10,000.00 over 12 months. They apply once the borrower accepts them.`,
      ),
    ).toBeTruthy();
    expect(sent).toEqual({ amount: 10_000, termMonths: 12 });
  });
});

describe('Approved Loan List', { timeout: 20_000 }, () => {
  it('shows approval columns and only View Profile / Update Loan', async () => {
    const item = makeListItem({
      status: 'approved',
      approvedAmountMinor: 20_000_000,
      decidedAt: '2025-03-02T01:00:00.000Z',
      decidedBy: 'olive',
      creditScore: 500,
    });
    openApplicationList('approved', [item]);
    expect(await screen.findByRole('heading', { name: 'Approved Loan List' })).toBeTruthy();
    const row = await rowOf(item.loanNumber);
    expect(columnHeaders()).toEqual([
      'Loan ID',
      'Name',
      'Phone',
      'Amount',
      'Term',
      'Date Approved',
      'Approved By',
      'Status',
      'Action',
    ]);
    expect(within(row).getByText('₱200,000')).toBeTruthy();
    expect(within(row).getByText('olive')).toBeTruthy();
    expect(within(row).getByText('Approved')).toBeTruthy();
    expect(await rowActionNames(row)).not.toContain('Approve');
    expect(await rowActionNames(row)).not.toContain('Reject');
    expect(await rowActionNames(row)).toContain('Update Loan');
  });

  it('never lets the amount go below what was withdrawn', async () => {
    const item = makeListItem({
      status: 'approved',
      approvedAmountMinor: 20_000_000,
      amountMinor: 20_000_000,
    });
    const { fetchMock } = openApplicationList('approved', [item], {
      ...stub(
        'GET /api/staff/applications/:id',
        { id: item.id },
        {
          body: makeProfile(item, { withdrawnMinor: 8_550_000, availableMinor: 11_450_000 }),
        },
      ),
    });
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Update Loan', 'Update Loan');
    expect((await within(dialog).findByTestId('withdrawn-note')).textContent).toContain(money(8_550_000));
    await waitFor(() =>
      expect(within(dialog).getByTestId('withdrawn-note').textContent).toContain('₱90,000'),
    );
    const amount = within(dialog).getByLabelText('Loan amount') as HTMLInputElement;
    await userEvent.clear(amount);
    await userEvent.type(amount, '60000');
    await userEvent.tab();
    // ₱85,500 withdrawn: the first allowed step covering it, ₱90,000, is offered; nothing changes by itself.
    expect(amount.value).toBe('60000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use ₱90,000' }));
    expect(amount.value).toBe('90,000');
    // Typed without blurring and saved with Enter: refused here, nothing sent.
    await userEvent.clear(amount);
    await userEvent.type(amount, '80000{Enter}');
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'The amount cannot be less than what has already been withdrawn (₱85,500.00).',
    );
    expect(requests(fetchMock).some((r) => r.startsWith('POST'))).toBe(false);
  });
});

describe('Reject', { timeout: 20_000 }, () => {
  it('requires a reason, asks for confirmation, then rejects', async () => {
    const item = makeListItem({ fullName: 'Carlo Reyes' });
    let sent: unknown;
    const { fetchMock } = openApplicationList(
      'pending',
      [item],
      {
        ...stub('POST /api/staff/applications/:id/reject', { id: item.id }, ({ body }) => {
          sent = body;
          return { body: makeProfile(item, { status: 'rejected', rejectReason: 'Income not verified' }) };
        }),
      },
      { pendingCount: 1 },
    );
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Reject', 'Reject Loan');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText('A reason is required.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/Reason for rejection/), '  Income not verified ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(within(dialog).getByText(/Are you sure you want to reject/)).toBeTruthy();
    expect(requests(fetchMock).some((r) => r.startsWith('POST'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(`Loan ${item.loanNumber} rejected.`)).toBeTruthy();
    expect(sent).toEqual({ reason: 'Income not verified' });
  });
});
