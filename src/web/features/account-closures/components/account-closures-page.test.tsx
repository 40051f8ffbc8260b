import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccountClosureItem } from '../../../../domain/schemas/account-closures';
import { mockApi, stub } from '../../../test/render';
import { admin, finance, officer, pageOf, renderBackOffice, staffBase } from '../../../test/staff';

const kept: AccountClosureItem = {
  userId: '00000000-0000-4000-8000-0000000000c1',
  phone: '09171112222',
  fullName: 'Maria Santos',
  requestedAt: '2026-11-23T04:00:00.000Z',
  anonymiseOn: '2031-11-23',
  anonymisedAt: null,
};
const anonymised: AccountClosureItem = {
  userId: '00000000-0000-4000-8000-0000000000c2',
  phone: null,
  fullName: null,
  requestedAt: '2020-01-02T04:00:00.000Z',
  anonymiseOn: '2025-01-02',
  anonymisedAt: '2025-01-02T01:00:00.000Z',
};

describe('account closure requests (staff)', { timeout: 30_000 }, () => {
  it.each([admin, officer])(
    'lists the closed accounts for $role, with when their data is anonymised',
    async (user) => {
      mockApi({
        ...staffBase(user),
        ...stub('GET /api/staff/account-closures', { body: pageOf([kept, anonymised]) }),
      });
      renderBackOffice('/admin/account-closures');
      const table = await screen.findByRole('table', { name: 'Account Closure Requests' });
      const first = (await within(table).findByText('Maria Santos')).closest('tr') as HTMLElement;
      expect(within(first).getByText('09171112222')).toBeTruthy();
      expect(within(first).getByText('Nov 23, 2031')).toBeTruthy();
      expect(within(first).getByText('Kept')).toBeTruthy();
      const second = within(table).getByText('Anonymised').closest('tr') as HTMLElement;
      expect(within(second).getAllByText('N/A')).toHaveLength(2);
      expect(screen.getByRole('link', { name: 'Account closures' })).toBeTruthy();
    },
  );

  it('is not in the finance sidebar, and finance is sent home', async () => {
    mockApi({ ...staffBase(finance), 'GET /api/staff/dashboard': { status: 200, body: undefined } });
    const { router } = renderBackOffice('/admin/account-closures');
    await screen.findAllByRole('link');
    expect(screen.queryByRole('link', { name: 'Account closures' })).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
  });
});
