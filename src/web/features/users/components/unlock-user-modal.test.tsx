import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeUser, mockApi, stub } from '../../../test/render';
import {
  userRow as asRow,
  chooseRowAction,
  pageOf,
  renderBackOffice,
  rowActionNames,
  staffBase,
} from '../../../test/staff';

const admin = makeUser({ id: '00000000-0000-4000-8000-0000000000a3', role: 'admin', username: 'adele' });
const locked = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000e1',
    role: 'officer',
    username: 'lola',
    phone: '09170000061',
  }),
  '2030-01-02T03:04:00.000Z',
);
const free = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000e2',
    role: 'finance',
    username: 'fred',
    phone: '09170000062',
  }),
);

async function rowOf(text: string) {
  const table = await screen.findByRole('table', { name: 'User Management' });
  return (await within(table).findByText(text)).closest('tr') as HTMLElement;
}

describe('Unlock a user', { timeout: 20_000 }, () => {
  it('only a locked account shows the lock and offers Unlock; confirming unlocks it', async () => {
    const fetchMock = mockApi({
      ...staffBase(admin),
      'GET /api/admin/users': { body: pageOf([asRow(admin), locked, free]) },
      ...stub(
        'POST /api/admin/users/:id/unlock',
        { id: locked.id },
        { body: { ...locked, lockedUntil: null } },
      ),
    });
    renderBackOffice('/admin/users');
    const row = await rowOf('lola');
    expect(within(row).getByText(/^Sign-in locked until /)).toBeTruthy();
    expect(within(await rowOf('fred')).queryByText(/Sign-in locked/)).toBeNull();
    expect(await rowActionNames(await rowOf('fred'))).not.toContain('Unlock');

    await chooseRowAction(row, 'Unlock');
    const dialog = await screen.findByRole('dialog', { name: 'Unlock Sign-in' });
    expect(within(dialog).getByText(/Unlock sign-in for lola\?/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('lola can sign in again.')).toBeTruthy();
    const posts = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([url]) => String(url));
    expect(posts).toEqual([`/api/admin/users/${locked.id}/unlock`]);
  });
});
