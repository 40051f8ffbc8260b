import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ServicingItem } from '../../../../domain/schemas/staff';
import { errorBody, type MockTable, mockApi, sentRequests, stub } from '../../../test/render';
import {
  admin,
  columnHeaders,
  finance,
  makeListItem,
  makeProfile,
  officer,
  openRowDialog,
  pageOf,
  renderBackOffice,
  rowOf,
  staffBase,
} from '../../../test/staff';
import { servicingActionsFor } from './servicing-actions';

let counter = 0;
function makeLoan(overrides: Partial<ServicingItem> = {}): ServicingItem {
  counter += 1;
  return {
    id: `00000000-0000-4000-9000-${String(counter).padStart(12, '0')}`,
    loanNumber: `HL-25-${String(900 + counter).padStart(6, '0')}`,
    fullName: 'Ana Santos',
    phone: '09171234567',
    approvedAmountMinor: 20_000_000,
    creditScore: 500,
    decidedAt: '2025-03-02T01:00:00.000Z',
    availableMinor: 11_450_000,
    status: 'approved',
    statusMessage: null,
    termsChangePending: false,
    ...overrides,
  };
}

function profileOf(loan: ServicingItem, overrides: Parameters<typeof makeProfile>[1] = {}) {
  const item = makeListItem({
    id: loan.id,
    loanNumber: loan.loanNumber,
    fullName: loan.fullName,
    status: loan.status,
    approvedAmountMinor: loan.approvedAmountMinor,
    amountMinor: loan.approvedAmountMinor,
    creditScore: loan.creditScore,
  });
  return makeProfile(item, overrides);
}

async function openMenu(loan: ServicingItem) {
  const cell = await screen.findByText(loan.loanNumber);
  const row = cell.closest('tr') as HTMLElement;
  await userEvent.click(within(row).getByRole('button', { name: `Actions for ${loan.loanNumber}` }));
  return screen.findByRole('menu');
}

async function choose(loan: ServicingItem, action: string, dialogName: string) {
  return openRowDialog(await rowOf(loan.loanNumber), action, dialogName);
}

/** Loan Servicing as `user` with `loans` listed; `more` answers the page's other requests. */
function openServicing(loans: ServicingItem[], more: MockTable = {}, user = officer) {
  const fetchMock = mockApi({ ...staffBase(user), 'GET /api/staff/loans': { body: pageOf(loans) }, ...more });
  return { ...renderBackOffice('/admin/servicing'), fetchMock };
}

describe('servicing permissions (SPEC §1)', () => {
  it('gives each role exactly its actions', () => {
    expect(servicingActionsFor('officer')).toEqual([
      'profile',
      'status',
      'creditScore',
      'amount',
      'message',
      'language',
    ]);
    expect(servicingActionsFor('finance')).toEqual(['profile', 'bankDetails']);
    expect(servicingActionsFor('admin')).toEqual([
      'profile',
      'status',
      'bankDetails',
      'creditScore',
      'resetPassword',
      'amount',
      'message',
      'language',
    ]);
    expect(servicingActionsFor('borrower')).toEqual([]);
  });
});

describe('Loan Servicing', { timeout: 20_000 }, () => {
  it('shows the SPEC columns, the rating and the available balance', async () => {
    const loan = makeLoan({ creditScore: 620, status: 'on_hold', statusMessage: 'Documents under review' });
    openServicing([loan]);
    expect(await screen.findByRole('heading', { name: 'Loan Servicing' })).toBeTruthy();
    await screen.findByText(loan.loanNumber);
    expect(columnHeaders()).toEqual([
      'Loan ID',
      'Name',
      'Phone',
      'Amount',
      'Credit Score',
      'Date Approved',
      'Available',
      'Status',
      'Action',
    ]);
    const row = screen.getByText(loan.loanNumber).closest('tr') as HTMLElement;
    expect(within(row).getByText('₱200,000')).toBeTruthy();
    expect(within(row).getByText('₱114,500')).toBeTruthy();
    expect(within(row).getByText('620')).toBeTruthy();
    expect(within(row).getByText('Very Good')).toBeTruthy();
    expect(within(row).getByText('Mar 2, 2025')).toBeTruthy();
    expect(within(row).getByText('On hold')).toBeTruthy();
    expect(within(row).getByText('Documents under review')).toBeTruthy();
  });

  it('the Loan ID opens the loan page', async () => {
    const loan = makeLoan();
    const { router } = openServicing([loan]);
    await userEvent.click(await screen.findByRole('link', { name: loan.loanNumber }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/loans/${loan.id}`));
  });

  it.each([
    [
      'officer',
      officer,
      [
        'View Profile',
        'Change Status',
        'Change Credit Score',
        'Change Amount',
        'Message Borrower',
        'Change SMS Language',
      ],
    ],
    ['finance', finance, ['View Profile', 'Change Bank Details']],
    [
      'admin',
      admin,
      [
        'View Profile',
        'Change Status',
        'Change Bank Details',
        'Change Credit Score',
        'Reset Password',
        'Change Amount',
        'Message Borrower',
        'Change SMS Language',
      ],
    ],
  ])('the %s’s action menu lists only what the role may do', async (_role, user, expected) => {
    const loan = makeLoan();
    openServicing([loan], {}, user);
    const menu = await openMenu(loan);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(expected);
  });

  it('putting on hold needs a message to the borrower and a reason', async () => {
    const loan = makeLoan();
    let lists = 0;
    const fetchMock = mockApi({
      ...staffBase(officer),
      'GET /api/staff/loans': () => {
        lists += 1;
        return {
          body: pageOf([lists === 1 ? loan : { ...loan, status: 'on_hold', statusMessage: 'Call us first' }]),
        };
      },
      ...stub('POST /api/staff/loans/:id/status', { id: loan.id }, ({ body }) => ({
        body: profileOf(loan, { status: 'on_hold', statusMessage: (body as { message: string }).message }),
      })),
    });
    renderBackOffice('/admin/servicing');
    const dialog = await choose(loan, 'Change Status', 'Put Loan on Hold');
    const confirm = within(dialog).getByRole('button', { name: 'Put on Hold' });

    await userEvent.click(confirm);
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Suspected fraud report');
    await userEvent.click(confirm);
    expect(within(dialog).getByRole('alert').textContent).toBe('A message to the borrower is required.');
    expect(sentRequests(fetchMock)).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/^Message to the borrower/), '  Call us first ');
    await userEvent.click(confirm);
    expect(await screen.findByText(`Loan ${loan.loanNumber} is on hold.`)).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      {
        url: `/api/staff/loans/${loan.id}/status`,
        body: { action: 'hold', message: 'Call us first', reason: 'Suspected fraud report' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list is read again: the row now says On hold.
    expect(await screen.findByText('On hold')).toBeTruthy();
  });

  it('releasing a loan whose hold was already released shows the 409 and closes', async () => {
    const loan = makeLoan({ status: 'on_hold', statusMessage: 'Call us first' });
    openServicing(
      [loan],
      {
        ...stub(
          'POST /api/staff/loans/:id/status',
          { id: loan.id },
          {
            status: 409,
            body: errorBody('STATUS_UNCHANGED', 'The loan already has this status.'),
          },
        ),
      },
      admin,
    );
    const dialog = await choose(loan, 'Change Status', 'Release Hold');
    expect(within(dialog).getByText('Call us first')).toBeTruthy();
    expect(within(dialog).queryByLabelText(/^Message to the borrower/)).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Documents verified');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Release Hold' }));
    expect(await screen.findByText('The loan already has this status.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Release Hold' })).toBeNull());
  });

  it('reset password asks for a reason, then the borrower gets a code by SMS: staff see no password or code', async () => {
    const loan = makeLoan();
    const { fetchMock } = openServicing(
      [loan],
      {
        ...stub('POST /api/staff/loans/:id/reset-password', { id: loan.id }, { body: { codeSent: true } }),
      },
      admin,
    );
    const dialog = await choose(loan, 'Reset Password', 'Reset Borrower Password');
    expect(
      within(dialog).getByText(/A code goes by SMS to the borrower's own phone.*“Forgot password\?”/),
    ).toBeTruthy();
    expect(within(dialog).getByText(/You never see the password or the code\./)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Borrower lost access, identity checked');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));

    expect(
      await screen.findByText(
        `${loan.fullName} was signed out and sent a code by SMS to choose a new password.`,
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset Borrower Password' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Temporary Password' })).toBeNull();
    expect(sentRequests(fetchMock)).toEqual([
      {
        url: `/api/staff/loans/${loan.id}/reset-password`,
        body: { reason: 'Borrower lost access, identity checked' },
      },
    ]);
  });

  it('bank details show the current account masked to the last 4 and send the new one', async () => {
    const loan = makeLoan();
    const { fetchMock } = openServicing(
      [loan],
      {
        ...stub(
          'GET /api/staff/applications/:id',
          { id: loan.id },
          {
            body: profileOf(loan, { bankName: 'GCash', accountNumber: '09171234567001' }),
          },
        ),
        ...stub('POST /api/staff/loans/:id/bank-details', { id: loan.id }, { body: profileOf(loan) }),
      },
      finance,
    );
    const dialog = await choose(loan, 'Change Bank Details', 'Change Bank Details');
    expect((await within(dialog).findByTestId('current-account')).textContent).toBe('GCash •••• 7001');
    expect(within(dialog).queryByText(/09171234567001/)).toBeNull();
    await waitFor(() =>
      expect((within(dialog).getByLabelText(/^Bank\/Wallet Name/) as HTMLInputElement).value).toBe('GCash'),
    );
    await userEvent.type(within(dialog).getByLabelText(/^New account number/), '12-34 5678x9');
    expect((within(dialog).getByLabelText(/^New account number/) as HTMLInputElement).value).toBe(
      '123456789',
    );
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Borrower moved to a new account');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(`Bank details of loan ${loan.loanNumber} changed.`)).toBeTruthy();
    expect(sentRequests(fetchMock)[0]?.body).toEqual({
      bankName: 'GCash',
      accountNumber: '123456789',
      reason: 'Borrower moved to a new account',
    });
  });

  it('credit score: pre-filled, rated live, range-checked before sending', async () => {
    const loan = makeLoan({ creditScore: 500 });
    const { fetchMock } = openServicing([loan], {
      ...stub(
        'POST /api/staff/loans/:id/credit-score',
        { id: loan.id },
        { body: profileOf(loan, { creditScore: 910 }) },
      ),
    });
    const dialog = await choose(loan, 'Change Credit Score', 'Change Credit Score');
    const score = within(dialog).getByLabelText(/^New credit score/) as HTMLInputElement;
    expect(score.value).toBe('500');
    expect(within(dialog).getByTestId('credit-rating').textContent).toBe('Rating: Good');
    await userEvent.clear(score);
    await userEvent.type(score, '1200');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Repaid another loan early');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'Please enter a credit score between 0 and 1000.',
    );
    expect(sentRequests(fetchMock)).toEqual([]);
    await userEvent.clear(score);
    await userEvent.type(score, '910');
    expect(within(dialog).getByTestId('credit-rating').textContent).toBe('Rating: Excellent');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(`Credit score of loan ${loan.loanNumber} set to 910.`)).toBeTruthy();
    expect(sentRequests(fetchMock)[0]?.body).toEqual({
      creditScore: 910,
      reason: 'Repaid another loan early',
    });
  });

  it('change amount never goes below what was withdrawn and shows the server’s answer', async () => {
    const loan = makeLoan({ approvedAmountMinor: 20_000_000 });
    const { fetchMock } = openServicing([loan], {
      ...stub(
        'GET /api/staff/applications/:id',
        { id: loan.id },
        {
          body: profileOf(loan, { withdrawnMinor: 8_550_000, availableMinor: 11_450_000, termMonths: 12 }),
        },
      ),
      ...stub('POST /api/staff/loans/:id/amount', { id: loan.id }, { body: profileOf(loan) }),
    });
    const dialog = await choose(loan, 'Change Amount', 'Change Amount');
    await waitFor(() =>
      expect(within(dialog).getByTestId('withdrawn-note').textContent).toContain('₱90,000'),
    );
    const amount = within(dialog).getByLabelText(/^New approved amount/) as HTMLInputElement;
    expect(amount.value).toBe('200,000');
    await userEvent.clear(amount);
    await userEvent.type(amount, '60000');
    await userEvent.tab();
    // Offered, never applied by itself (issue #32).
    expect(amount.value).toBe('60000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use ₱90,000' }));
    expect(amount.value).toBe('90,000');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Borrower asked for less');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(/Approved amount of loan .* changed to ₱90,000\.00\./)).toBeTruthy();
    expect(sentRequests(fetchMock)[0]?.body).toEqual({ amount: 90_000, reason: 'Borrower asked for less' });
  });

  it('message borrower needs the message; the server’s error stays in the modal', async () => {
    const loan = makeLoan();
    openServicing([loan], {
      ...stub(
        'POST /api/staff/loans/:id/message',
        { id: loan.id },
        {
          status: 403,
          body: errorBody('FORBIDDEN', 'You do not have permission to do this.'),
        },
      ),
    });
    const dialog = await choose(loan, 'Message Borrower', 'Message Borrower');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Payment reminder');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Message is required');
    await userEvent.type(within(dialog).getByLabelText(/^Message/), 'Your first payment is due on 1 May.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'You do not have permission to do this.',
    );
    expect(screen.getByRole('dialog', { name: 'Message Borrower' })).toBeTruthy();
  });

  it('sets the language the borrower asked for their SMS, with a reason (issue #36)', async () => {
    const loan = makeLoan();
    const { fetchMock } = openServicing([loan], {
      ...stub('POST /api/staff/loans/:id/language', { id: loan.id }, { body: profileOf(loan) }),
    });
    const dialog = await choose(loan, 'Change SMS Language', 'Change SMS Language');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Borrower asked by phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('SMS language is required');
    await userEvent.click(within(dialog).getByRole('textbox', { name: /^Language of the borrower/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'ខ្មែរ' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls
          .filter(([url]) => url === `/api/staff/loans/${loan.id}/language`)
          .map(([, init]) => JSON.parse(String(init?.body))),
      ).toEqual([{ language: 'km', reason: 'Borrower asked by phone' }]),
    );
  });
});
