import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { stub } from '../../../test/render';
import {
  makeListItem,
  makeProfile,
  openApplicationList,
  openRowDialog,
  rowActionNames,
  rowOf,
} from '../../../test/staff';

describe('signed terms and four-eyes on the Pending list (docs/decisions/018)', { timeout: 20_000 }, () => {
  it('shows who approved first and offers "Confirm approval" instead of "Approve"', async () => {
    const item = makeListItem({
      amountMinor: 20_000_000,
      firstApprovedBy: 'adele',
      firstApprovedAt: '2025-03-01T03:00:00.000Z',
    });
    const { fetchMock } = openApplicationList('pending', [item], {
      ...stub(
        'POST /api/staff/applications/:id/confirm-approval',
        { id: item.id },
        {
          body: makeProfile(item, { status: 'approved', firstApprovedBy: null }),
        },
      ),
    });
    const row = await rowOf(item.loanNumber);
    expect(within(row).getByText('Awaiting second approval — approved by adele')).toBeTruthy();
    expect(await rowActionNames(row)).toEqual(['View Profile', 'Update Loan', 'Confirm approval', 'Reject']);
    const dialog = await openRowDialog(row, 'Confirm approval', 'Confirm Approval');
    expect(within(dialog).getByText(/adele approved/)).toBeTruthy();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Confirm approval' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => init?.method === 'POST' && String(url).endsWith('/confirm-approval'),
        ),
      ).toBe(true),
    );
  });

  it('marks a loan waiting for the borrower and lets staff withdraw the proposal with a reason shown to the borrower', async () => {
    const item = makeListItem({ termsChangePending: true });
    const { fetchMock } = openApplicationList('pending', [item], {
      ...stub(
        'POST /api/staff/applications/:id/terms-change/withdraw',
        { id: item.id },
        {
          body: makeProfile(item, { termsChangePending: false }),
        },
      ),
    });
    const row = await rowOf(item.loanNumber);
    expect(within(row).getByText("Waiting for borrower's acceptance")).toBeTruthy();
    const dialog = await openRowDialog(row, 'Withdraw proposal', 'Withdraw Proposed Terms');
    expect(within(dialog).getByText('Shown to the borrower')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(within(dialog).getByRole('textbox'), 'Sent by mistake');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw proposal' }));
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/terms-change/withdraw'));
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({ reason: 'Sent by mistake' });
    });
  });

  it('Update Loan labels the note as shown to the borrower and sends a borrower-asked reduction as such', async () => {
    const item = makeListItem({ amountMinor: 10_000_000, termMonths: 6 });
    const { fetchMock } = openApplicationList('pending', [item], {
      ...stub('GET /api/staff/applications/:id', { id: item.id }, { body: makeProfile(item) }),
      ...stub(
        'POST /api/staff/applications/pending/:id/terms',
        { id: item.id },
        {
          body: makeProfile(item, { amountMinor: 9_000_000 }),
        },
      ),
    });
    const row = await rowOf(item.loanNumber);
    const dialog = await openRowDialog(row, 'Update Loan', 'Update Loan');
    expect(within(dialog).getByText(/^Shown to the borrower/)).toBeTruthy();
    const user = userEvent.setup();
    const amount = within(dialog).getByLabelText(/Loan amount/);
    await user.clear(amount);
    await user.type(amount, '90000');
    await user.click(within(dialog).getByLabelText('The borrower asked for this lower amount'));
    await user.type(within(dialog).getByLabelText(/Note to the borrower/), 'Asked by phone');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/terms'));
      expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({
        amount: 90000,
        borrowerRequested: true,
        reason: 'Asked by phone',
      });
    });
  });
});
