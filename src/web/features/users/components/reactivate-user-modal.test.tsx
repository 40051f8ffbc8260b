import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorBody, makeUser, sentRequests, stub } from '../../../test/render';
import {
  admin,
  userRow as asRow,
  finance,
  openRowDialog,
  openUserManagement,
  rowActionNames,
  userTableRow,
} from '../../../test/staff';

const gone = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000d4',
    role: 'officer',
    username: 'dora',
    phone: '09170000044',
    status: 'deactivated',
  }),
);
const active = asRow(finance);

describe('Reactivate a user', { timeout: 20_000 }, () => {
  it('only deactivated users offer Reactivate; a reason is required, then the temporary password shows once', async () => {
    const { fetchMock } = openUserManagement([asRow(admin), gone, active], {
      ...stub(
        'POST /api/admin/users/:id/reactivate',
        { id: gone.id },
        { body: { temporaryPassword: 'Tmp7kQ2mXw9pLr' } },
      ),
    });
    const row = await userTableRow('dora');
    expect(within(row).getByText('Deactivated')).toBeTruthy();
    expect(await rowActionNames(await userTableRow('fiona'))).not.toContain('Reactivate');

    const dialog = await openRowDialog(row, 'Reactivate', 'Reactivate User');
    expect(within(dialog).getByText(/Reactivate dora\? They get a temporary password/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/^Reason/), '  Back from leave ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('dora was reactivated.')).toBeTruthy();
    expect(await screen.findByText('Tmp7kQ2mXw9pLr')).toBeTruthy();
    expect(sentRequests(fetchMock)).toEqual([
      { url: `/api/admin/users/${gone.id}/reactivate`, body: { reason: 'Back from leave' } },
    ]);
  });

  it('shows the server’s refusal in the dialog', async () => {
    openUserManagement([asRow(admin), gone], {
      ...stub(
        'POST /api/admin/users/:id/reactivate',
        { id: gone.id },
        {
          status: 409,
          body: errorBody('USER_ALREADY_ACTIVE', 'This user is already active.'),
        },
      ),
    });
    const dialog = await openRowDialog(await userTableRow('dora'), 'Reactivate', 'Reactivate User');
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Rehired');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This user is already active.');
  });
});
