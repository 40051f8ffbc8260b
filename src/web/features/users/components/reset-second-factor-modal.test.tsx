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
const fina = asRow(
  makeUser({
    id: '00000000-0000-4000-8000-0000000000d5',
    role: 'finance',
    username: 'fina',
    phone: '09170000055',
  }),
);
const borrower = asRow(makeUser({ id: '00000000-0000-4000-8000-0000000000d6', phone: '09170000066' }));

describe('Reset two-step sign-in', { timeout: 20_000 }, () => {
  it('staff rows offer it; a reason is required and sent', async () => {
    const fetchMock = mockApi({
      ...staffBase(admin),
      'GET /api/admin/users': { body: pageOf([asRow(admin), fina, borrower]) },
      ...stub('POST /api/admin/users/:id/reset-second-factor', { id: fina.id }, { body: { ok: true } }),
    });
    renderBackOffice('/admin/users');
    const table = await screen.findByRole('table', { name: 'User Management' });
    const row = (await within(table).findByText('fina')).closest('tr') as HTMLElement;
    const borrowerRow = within(table).getByText('09170000066').closest('tr') as HTMLElement;
    expect(await rowActionNames(borrowerRow)).not.toContain('Reset two-step sign-in');

    await chooseRowAction(row, 'Reset two-step sign-in');
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-step sign-in' });
    expect(
      within(dialog).getByText(/Remove the authenticator app, recovery codes and passkeys of fina\?/),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await within(dialog).findByText('A reason is required.')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), 'Lost phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-step sign-in of fina was reset.')).toBeTruthy();
    const sent = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(sent.map(([url, init]) => [url, JSON.parse(String(init?.body))])).toEqual([
      [`/api/admin/users/${fina.id}/reset-second-factor`, { reason: 'Lost phone' }],
    ]);
  });
});
