import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorBody, makeUser, mockApi, stub } from '../../../test/render';
import {
  userRow as asRow,
  chooseRowAction,
  pageOf,
  renderBackOffice,
  rowActionNames,
  staffBase,
} from '../../../test/staff';

const admin = makeUser({ id: '00000000-0000-4000-8000-0000000000a3', role: 'admin', username: 'adele' });
const gone = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000d4',
    role: 'officer',
    username: 'dora',
    phone: '09170000044',
    status: 'deactivated',
  }),
);
const active = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000d5',
    role: 'finance',
    username: 'fina',
    phone: '09170000055',
  }),
);

function posts(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init?.body)) }));
}

async function rowOf(text: string) {
  const table = await screen.findByRole('table', { name: 'User Management' });
  return (await within(table).findByText(text)).closest('tr') as HTMLElement;
}

describe('Reactivate a user', { timeout: 20_000 }, () => {
  it('only deactivated users offer Reactivate; a reason is required, then the temporary password shows once', async () => {
    const fetchMock = mockApi({
      ...staffBase(admin),
      'GET /api/admin/users': { body: pageOf([asRow(admin), gone, active]) },
      ...stub(
        'POST /api/admin/users/:id/reactivate',
        { id: gone.id },
        { body: { temporaryPassword: 'Tmp7kQ2mXw9pLr' } },
      ),
    });
    renderBackOffice('/admin/users');
    const row = await rowOf('dora');
    expect(within(row).getByText('Deactivated')).toBeTruthy();
    expect(await rowActionNames(await rowOf('fina'))).not.toContain('Reactivate');

    await chooseRowAction(row, 'Reactivate');
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate User' });
    expect(within(dialog).getByText(/Reactivate dora\? They get a temporary password/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    expect(posts(fetchMock)).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/^Reason/), '  Back from leave ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('dora was reactivated.')).toBeTruthy();
    expect(await screen.findByText('Tmp7kQ2mXw9pLr')).toBeTruthy();
    expect(posts(fetchMock)).toEqual([
      { url: `/api/admin/users/${gone.id}/reactivate`, body: { reason: 'Back from leave' } },
    ]);
  });

  it('shows the server’s refusal in the dialog', async () => {
    mockApi({
      ...staffBase(admin),
      'GET /api/admin/users': { body: pageOf([asRow(admin), gone]) },
      ...stub(
        'POST /api/admin/users/:id/reactivate',
        { id: gone.id },
        {
          status: 409,
          body: errorBody('USER_ALREADY_ACTIVE', 'This user is already active.'),
        },
      ),
    });
    renderBackOffice('/admin/users');
    await chooseRowAction(await rowOf('dora'), 'Reactivate');
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate User' });
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Rehired');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This user is already active.');
  });
});
