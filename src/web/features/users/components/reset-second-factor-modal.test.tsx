import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser, sentRequests, stub } from '../../../test/render';
import {
  admin,
  userRow as asRow,
  finance,
  openRowDialog,
  openUserManagement,
  rowActionNames,
  userTableRow,
} from '../../../test/staff';

const fiona = asRow(finance);
const borrower = asRow(makeUser({ id: '00000000-0000-4000-8000-0000000000d6', phone: '09170000066' }));

describe('Reset two-step sign-in', { timeout: 20_000 }, () => {
  it('staff rows offer it; a reason is required and sent', async () => {
    const { fetchMock } = openUserManagement([asRow(admin), fiona, borrower], {
      ...stub('POST /api/admin/users/:id/reset-second-factor', { id: fiona.id }, { body: { ok: true } }),
    });
    const row = await userTableRow('fiona');
    const borrowerRow = await userTableRow('09170000066');
    expect(await rowActionNames(borrowerRow)).not.toContain('Reset two-step sign-in');

    const dialog = await openRowDialog(row, 'Reset two-step sign-in', 'Reset two-step sign-in');
    expect(
      within(dialog).getByText(/Remove the authenticator app, recovery codes and passkeys of fiona\?/),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Lost phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-step sign-in of fiona was reset.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      { url: `/api/admin/users/${fiona.id}/reset-second-factor`, body: { reason: 'Lost phone' } },
    ]);
  });
});
