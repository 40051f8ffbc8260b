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

const locked = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000e1',
    role: 'officer',
    username: 'lola',
    phone: '09170000061',
  }),
  '2030-01-02T03:04:00.000Z',
);
const free = asRow(finance);

describe('Unlock a user', { timeout: 20_000 }, () => {
  it('only a locked account shows the lock and offers Unlock; confirming unlocks it', async () => {
    const { fetchMock } = openUserManagement([asRow(admin), locked, free], {
      ...stub(
        'POST /api/admin/users/:id/unlock',
        { id: locked.id },
        { body: { ...locked, lockedUntil: null } },
      ),
    });
    const row = await userTableRow('lola');
    expect(within(row).getByText(/^Sign-in locked until /)).toBeTruthy();
    expect(within(await userTableRow('fiona')).queryByText(/Sign-in locked/)).toBeNull();
    expect(await rowActionNames(await userTableRow('fiona'))).not.toContain('Unlock');

    const dialog = await openRowDialog(row, 'Unlock', 'Unlock Sign-in');
    expect(within(dialog).getByText(/Unlock sign-in for lola\?/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('lola can sign in again.')).toBeTruthy();
    expect(sentRequests(fetchMock).map(({ url }) => url)).toEqual([`/api/admin/users/${locked.id}/unlock`]);
  });
});
