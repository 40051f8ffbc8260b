import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorBody, makeUser, mockApi, sentRequests, stub } from '../../../test/render';
import {
  admin,
  userRow as asRow,
  columnHeaders,
  finance,
  makeSummary,
  officer,
  openRowDialog,
  openUserManagement,
  pageOf,
  renderBackOffice,
  rowActionNames,
  staffBase,
  userTableRow,
} from '../../../test/staff';

const me = asRow(admin);
const olive = asRow({ ...officer, lastLoginAt: '2025-03-04T01:00:00.000Z' });
const borrower = asRow(
  makeUser({ id: '00000000-0000-4000-8000-0000000000b9', role: 'borrower', phone: '09998887777' }),
);

/** The server refuses the new user: the phone or username is taken. */
const userTaken = {
  'POST /api/admin/users': {
    status: 409,
    body: errorBody('USER_TAKEN', 'Phone number or username already in use'),
  },
};

async function fillAddForm(values: { username?: string; password?: string; phone?: string; role?: string }) {
  const form = screen.getByRole('form', { name: 'Add User' });
  if (values.username) await userEvent.type(within(form).getByLabelText(/^Username/), values.username);
  if (values.password)
    await userEvent.type(within(form).getByLabelText(/^Temporary password/), values.password);
  if (values.phone) await userEvent.type(within(form).getByLabelText(/^Phone number/), values.phone);
  if (values.role) {
    await userEvent.click(within(form).getByRole('textbox', { name: /^Role/ }));
    await userEvent.click(await screen.findByRole('option', { name: values.role }));
  }
  return form;
}

describe('User Management', { timeout: 20_000 }, () => {
  it('lists users with the SPEC columns; no Delete on your own row', async () => {
    openUserManagement([me, olive, borrower]);
    expect(await screen.findByRole('heading', { name: 'User Management' })).toBeTruthy();
    await userTableRow('olive');
    expect(columnHeaders()).toEqual([
      'Username',
      'Phone',
      'Role',
      'Status',
      'Created At',
      'Last Login',
      'Actions',
    ]);
    const mine = await userTableRow('adele');
    expect(within(mine).getByText('You')).toBeTruthy();
    expect(await rowActionNames(mine)).toContain('Update');
    expect(await rowActionNames(mine)).not.toContain('Delete');
    const theirs = await userTableRow('olive');
    expect(within(theirs).getByText('Officer')).toBeTruthy();
    expect(within(theirs).getByText('Active')).toBeTruthy();
    expect(await rowActionNames(theirs)).toContain('Delete');
    // A borrower has no username: N/A, and they are called by their phone.
    const theirRow = await userTableRow('09998887777');
    expect(within(theirRow).getAllByRole('cell')[0]?.textContent).toBe('N/A');
  });

  it('searches by phone through the URL and the API', async () => {
    const { fetchMock, router } = openUserManagement([me, olive], {
      ...stub('GET /api/admin/users?phone=0917', { body: pageOf([olive]) }),
    });
    await userTableRow('olive');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Phone' }), '09-17{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?phone=0917'));
    const table = screen.getByRole('table', { name: 'User Management' });
    await waitFor(() => expect(within(table).queryByText('adele')).toBeNull());
    expect(sentRequests(fetchMock, 'GET').map((c) => c.url)).toContain('/api/admin/users?phone=0917');
  });

  it('add user: "Please fill all fields." without calling the server', async () => {
    const { fetchMock } = openUserManagement([me]);
    await userTableRow('adele');
    const form = await fillAddForm({ username: 'fiona', phone: '09170000002' });
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please fill all fields.');
    expect(sentRequests(fetchMock, 'POST')).toEqual([]);
  });

  it('add user: shows "Phone number or username already in use" from the server', async () => {
    const { fetchMock } = openUserManagement([me], userTaken);
    await userTableRow('adele');
    const form = await fillAddForm({
      username: 'olive',
      password: 'temporary pass 1',
      phone: '09170000001',
      role: 'Officer',
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Phone number or username already in use',
    );
    expect(sentRequests(fetchMock, 'POST')).toEqual([
      {
        url: '/api/admin/users',
        body: { username: 'olive', password: 'temporary pass 1', phone: '09170000001', role: 'officer' },
      },
    ]);
  });

  it('add user: a phone written "+63 917 000 0003" (pasted whole) is taken as written; the server keeps its one form', async () => {
    const { fetchMock } = openUserManagement([me], userTaken);
    await userTableRow('adele');
    const form = await fillAddForm({ username: 'pia', password: 'temporary pass 1', role: 'Officer' });
    const phone = within(form).getByLabelText(/^Phone number/);
    await userEvent.click(phone);
    await userEvent.paste('+63 917 000 0003');
    expect((phone as HTMLInputElement).value).toBe('+63 917 000 0003');
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    await within(form).findByRole('alert');
    expect(sentRequests(fetchMock, 'POST')).toEqual([
      {
        url: '/api/admin/users',
        body: { username: 'pia', password: 'temporary pass 1', phone: '+63 917 000 0003', role: 'officer' },
      },
    ]);
  });

  it('add user: success toast, form cleared, list refreshed', async () => {
    let lists = 0;
    const fiona = asRow(finance);
    mockApi({
      ...staffBase(admin),
      'GET /api/admin/users': () => {
        lists += 1;
        return { body: pageOf(lists === 1 ? [me] : [fiona, me]) };
      },
      'POST /api/admin/users': { status: 201, body: fiona },
    });
    renderBackOffice('/admin/users');
    await userTableRow('adele');
    const form = await fillAddForm({
      username: 'fiona',
      password: 'temporary pass 1',
      phone: '09170000002',
      role: 'Finance',
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('User fiona added.')).toBeTruthy();
    expect(await userTableRow('fiona')).toBeTruthy();
    expect((within(form).getByLabelText(/^Username/) as HTMLInputElement).value).toBe('');
  });

  it('delete asks "Are you sure you want to delete {username}?" and says it was deleted', async () => {
    const { fetchMock } = openUserManagement([me, olive], {
      ...stub('DELETE /api/admin/users/:id', { id: olive.id }, { body: { outcome: 'deleted' } }),
    });
    const row = await userTableRow('olive');
    const dialog = await openRowDialog(row, 'Delete', 'Delete User');
    expect(within(dialog).getByText('Are you sure you want to delete olive?')).toBeTruthy();
    expect(sentRequests(fetchMock, 'DELETE')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User olive was deleted.')).toBeTruthy();
    expect(sentRequests(fetchMock, 'DELETE').map((c) => c.url)).toEqual([`/api/admin/users/${olive.id}`]);
  });

  it('a user who owns records is deactivated instead, and the toast says so', async () => {
    openUserManagement([me, borrower], {
      ...stub('DELETE /api/admin/users/:id', { id: borrower.id }, { body: { outcome: 'deactivated' } }),
    });
    const row = await userTableRow('09998887777');
    const dialog = await openRowDialog(row, 'Delete', 'Delete User');
    expect(within(dialog).getByText('Are you sure you want to delete 09998887777?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText('09998887777 owns records, so the account was deactivated instead of deleted.'),
    ).toBeTruthy();
    expect(screen.queryByText('User 09998887777 was deleted.')).toBeNull();
  });

  it('the last admin cannot be deleted: the server’s message stays in the dialog', async () => {
    const other = asRow(
      makeUser({ id: '00000000-0000-4000-8000-0000000000c1', role: 'admin', username: 'root2' }),
    );
    openUserManagement([me, other], {
      ...stub(
        'DELETE /api/admin/users/:id',
        { id: other.id },
        {
          status: 409,
          body: errorBody('LAST_ADMIN', 'The last administrator cannot be deleted, deactivated or demoted.'),
        },
      ),
    });
    const row = await userTableRow('root2');
    const dialog = await openRowDialog(row, 'Delete', 'Delete User');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The last administrator cannot be deleted, deactivated or demoted.',
    );
  });

  it('update: phone and a new temporary password are required; the role is sent only when changed', async () => {
    const { fetchMock } = openUserManagement([me, olive], {
      ...stub('POST /api/admin/users/:id', { id: olive.id }, { body: olive }),
    });
    const row = await userTableRow('olive');
    const dialog = await openRowDialog(row, 'Update', 'Update User');
    const phone = within(dialog).getByLabelText(/^Phone number/) as HTMLInputElement;
    expect(phone.value).toBe('09170000001');
    await userEvent.clear(phone);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Phone and password cannot be empty.');
    expect(sentRequests(fetchMock, 'POST')).toEqual([]);
    await userEvent.type(phone, '09175550000');
    await userEvent.type(within(dialog).getByLabelText(/^New temporary password/), 'another temp 1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('User olive updated.')).toBeTruthy();
    expect(sentRequests(fetchMock, 'POST')).toEqual([
      { url: `/api/admin/users/${olive.id}`, body: { phone: '09175550000', password: 'another temp 1' } },
    ]);
  });

  it('officers and finance are sent to the back-office home', async () => {
    mockApi({
      ...staffBase(officer),
      'GET /api/staff/dashboard': { body: makeSummary() },
    });
    const { router } = renderBackOffice('/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
  });
});
