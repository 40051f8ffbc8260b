import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ComplaintListItem, StaffComplaintDto } from '../../../../domain/schemas/complaints';
import { mockApi, stub } from '../../../test/render';
import {
  admin,
  finance,
  makeSummary,
  openRowDialog,
  pageOf,
  renderBackOffice,
  staffBase,
} from '../../../test/staff';

const item: ComplaintListItem = {
  id: 'c1',
  reference: 'C-2026-000042',
  category: 'collection_practices',
  status: 'received',
  fullName: 'Maria Santos',
  phone: '09171234567',
  createdAt: '2026-11-20T02:00:00.000Z',
  ageDays: 3,
  assignedTo: null,
  replies: 0,
};
const detail: StaffComplaintDto = {
  ...item,
  text: 'A collector called at 11 pm.',
  hasPicture: false,
  assignedToId: null,
  resolvedAt: null,
  resolvedBy: null,
  resolutionNote: null,
  loanNumber: 'HL-26-000001',
  replyList: [],
};

describe('Complaints queue', { timeout: 20_000 }, () => {
  it('lists open complaints with their age and answers one', async () => {
    let replied: unknown = null;
    mockApi({
      ...staffBase(admin),
      'GET /api/staff/complaints': { body: pageOf([item]) },
      ...stub('GET /api/staff/complaints/:id', { id: 'c1' }, { body: detail }),
      ...stub('POST /api/staff/complaints/:id/replies', { id: 'c1' }, ({ body }) => {
        replied = body;
        return { body: { ...detail, status: 'in_progress' } };
      }),
    });
    renderBackOffice('/admin/complaints');
    const row = (await screen.findByText('C-2026-000042')).closest('tr')!;
    expect(within(row).getByText('Collection practices')).toBeTruthy();
    expect(within(row).getByText('3')).toBeTruthy();
    expect(within(row).getByText('Unassigned')).toBeTruthy();
    const dialog = await openRowDialog(row, 'View and reply', 'Complaint C-2026-000042');
    await within(dialog).findByText('A collector called at 11 pm.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reply' }));
    expect(await within(dialog).findByText('Please write a reply.')).toBeTruthy();
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Reply to the borrower' }),
      'We are on it.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(replied).toEqual({ message: 'We are on it.' }));
    expect(await screen.findByText('Reply sent to the borrower')).toBeTruthy();
  });

  it('is not in the sidebar for finance, who cannot handle complaints', async () => {
    mockApi({ ...staffBase(finance), 'GET /api/staff/dashboard': { body: makeSummary() } });
    renderBackOffice('/admin/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    await within(nav).findByText('Home');
    expect(within(nav).queryByText('Complaints')).toBeNull();
  });
});
