import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEventDto } from '../../../../domain/schemas/staff';
import { createFormatters } from '../../../lib/format';
import i18n from '../../../lib/i18n';
import { mockApi, stub } from '../../../test/render';
import {
  admin,
  columnHeaders,
  finance,
  makeSummary,
  pageOf,
  renderBackOffice,
  staffBase,
} from '../../../test/staff';
import { auditCsvUrl, changeLines } from './audit-page';

let counter = 0;
function makeEvent(overrides: Partial<AuditEventDto> = {}): AuditEventDto {
  counter += 1;
  return {
    id: counter,
    at: '2025-03-05T06:07:00.000Z',
    actorUsername: 'olive',
    actorRole: 'officer',
    action: 'loan.hold',
    targetType: 'loan',
    targetId: '00000000-0000-4000-9000-000000000001',
    loanNumber: 'HL-25-000123',
    changes: {
      status: { before: 'approved', after: 'on_hold' },
      statusMessage: { before: null, after: 'Call us first' },
    },
    reason: 'Suspected fraud report',
    ip: '203.0.113.7',
    ...overrides,
  };
}

function csvLink() {
  return screen.getByRole('link', { name: 'Export CSV' }) as HTMLAnchorElement;
}

describe('Audit Log', { timeout: 20_000 }, () => {
  it('writes each change in the reader’s language: labels, money, statuses, dates, Yes/No, null as —', () => {
    const changes = {
      ...makeEvent().changes,
      amount: { before: 14_000_000, after: 16_000_000 },
      termMonths: { before: 12, after: 24 },
      mustChangePassword: { before: false, after: true },
      receivedOn: { before: null, after: '2025-03-04' },
      role: { before: 'officer', after: 'finance' },
      totp: { before: false, after: true },
      recoveryCodes: { before: null, after: 10 },
      receivedAt: { before: null, after: '2025-03-04T23:30:00.000Z' },
      somethingNew: { before: 'a', after: 'b' },
    };
    const en = createFormatters({ language: 'en', timeZone: 'Asia/Manila', na: 'N/A' });
    expect(changeLines(changes, i18n.getFixedT('en'), en)).toEqual([
      'Status: Approved → On hold',
      'Message to borrower: — → Call us first',
      'Amount: ₱140,000.00 → ₱160,000.00',
      'Term (months): 12 → 24',
      'Must change password: No → Yes',
      `Received on: — → ${en.calendarDate('2025-03-04')}`,
      'Role: Officer → Finance',
      'Authenticator app: No → Yes',
      'Recovery codes: — → 10',
      `Received at: — → ${en.dateTime('2025-03-04T23:30:00.000Z')}`,
      // A field the catalogue does not know yet: its name, and the values as text.
      'somethingNew: a → b',
    ]);
    const zh = createFormatters({ language: 'zh', timeZone: 'Asia/Manila', na: '无' });
    expect(changeLines(changes, i18n.getFixedT('zh'), zh).slice(0, 5)).toEqual([
      '状态: 已批准 → 已暂停',
      '给借款人的消息: — → Call us first',
      `金额: ${zh.money(14_000_000)} → ${zh.money(16_000_000)}`,
      '期限（月）: 12 → 24',
      '须修改密码: 否 → 是',
    ]);
    expect(changeLines({}, i18n.getFixedT('en'), en)).toEqual([]);
    expect(auditCsvUrl({ actor: 'olive', action: '', from: '2025-03-01' }, 'zh')).toBe(
      '/api/admin/audit.csv?actor=olive&from=2025-03-01&lang=zh',
    );
  });

  it('shows when (Manila), who, a translated action, target, changes, reason and IP', async () => {
    const hold = makeEvent();
    const custom = makeEvent({
      action: 'system.rotate_keys',
      actorUsername: null,
      actorRole: 'system',
      targetType: 'config',
      targetId: 'abcdef0123456789',
      loanNumber: null,
      changes: {},
      reason: null,
      ip: null,
    });
    // Actions added after the screen was first written read as words too, never as their stored names.
    const totp = makeEvent({
      action: 'user.totp_enabled',
      targetType: 'user',
      targetId: '1983de7e-0000-4000-9000-000000000002',
      loanNumber: null,
      changes: { totp: { before: false, after: true }, recoveryCodes: { before: null, after: 10 } },
      reason: null,
    });
    const reply = makeEvent({
      action: 'complaint.reply',
      targetType: 'complaint',
      targetId: 'c42dc3bb-0000-4000-9000-000000000003',
      changes: {},
    });
    mockApi({
      ...staffBase(admin),
      'GET /api/admin/audit': { body: pageOf([hold, custom, totp, reply]) },
    });
    renderBackOffice('/admin/audit');
    expect(await screen.findByRole('heading', { name: 'Audit Log' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Audit Log' });
    const row = (await within(table).findByText('Put loan on hold')).closest('tr') as HTMLElement;
    expect(columnHeaders()).toEqual(['When', 'Who · IP', 'Action · Target', 'Changes', 'Reason']);
    // 06:07 UTC is 2:07 pm in Manila.
    expect(within(row).getByText(/Mar 5, 2025.* 2:07\s*pm/i)).toBeTruthy();
    expect(within(row).getByText('olive')).toBeTruthy();
    expect(within(row).getByText('Officer')).toBeTruthy();
    expect(within(row).getByTestId('audit-target').textContent).toBe('Loan HL-25-000123');
    expect(within(row).getByTestId('audit-changes').textContent).toBe(
      'Status: Approved → On holdMessage to borrower: — → Call us first',
    );
    expect(within(row).getByText('Status: Approved → On hold')).toBeTruthy();
    expect(within(row).getByText('Suspected fraud report')).toBeTruthy();
    expect(within(row).getByText('203.0.113.7')).toBeTruthy();
    // An action the screen does not know shows its raw name.
    const other = within(table).getByText('system.rotate_keys').closest('tr') as HTMLElement;
    expect(within(other).getByTestId('audit-target').textContent).toBe('config abcdef01…');
    expect(within(other).getByTestId('audit-reason').textContent).toBe('N/A');
    const secondFactor = within(table).getByText('Turned on authenticator app').closest('tr') as HTMLElement;
    expect(within(secondFactor).getByTestId('audit-target').textContent).toBe('User 1983de7e…');
    expect(within(secondFactor).getByTestId('audit-changes').textContent).toBe(
      'Authenticator app: No → YesRecovery codes: — → 10',
    );
    const complaint = within(table).getByText('Replied to complaint').closest('tr') as HTMLElement;
    expect(within(complaint).getByTestId('audit-target').textContent).toBe('Complaint c42dc3bb…');
  });

  it('filters go into the query string, and the CSV link carries the same filters', async () => {
    const fetchMock = mockApi({
      ...staffBase(admin),
      'GET /api/admin/audit': { body: pageOf([makeEvent()]) },
      ...stub('GET /api/admin/audit?actor=olive&loan=HL-25', { body: pageOf([makeEvent()]) }),
      ...stub('GET /api/admin/audit?actor=olive&action=loan.hold&loan=HL-25', {
        body: pageOf([makeEvent()]),
      }),
      ...stub('GET /api/admin/audit?actor=olive&action=loan.hold&loan=HL-25&from=2025-03-01&to=2025-03-31', {
        body: pageOf([makeEvent()]),
      }),
    });
    const { router } = renderBackOffice('/admin/audit');
    await screen.findByRole('table', { name: 'Audit Log' });
    expect(csvLink().getAttribute('href')).toBe('/api/admin/audit.csv?lang=en');
    expect(csvLink().hasAttribute('download')).toBe(true);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Who' }), 'olive');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Loan' }), 'HL-25{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?actor=olive&loan=HL-25'));
    expect(csvLink().getAttribute('href')).toBe('/api/admin/audit.csv?actor=olive&loan=HL-25&lang=en');

    await userEvent.click(screen.getByRole('textbox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Put loan on hold' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?actor=olive&action=loan.hold&loan=HL-25'),
    );

    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    await userEvent.type(from, '2025-03-01');
    await userEvent.type(to, '2025-03-31');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    const expected = 'actor=olive&action=loan.hold&loan=HL-25&from=2025-03-01&to=2025-03-31';
    await waitFor(() => expect(router.state.location.search).toBe(`?${expected}`));
    expect(csvLink().getAttribute('href')).toBe(`/api/admin/audit.csv?${expected}&lang=en`);
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => url)).toContain(`/api/admin/audit?${expected}`),
    );
  });

  it('is for admins only: finance is sent to the back-office home', async () => {
    mockApi({ ...staffBase(finance), 'GET /api/staff/dashboard': { body: makeSummary() } });
    const { router } = renderBackOffice('/admin/audit');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
  });
});
