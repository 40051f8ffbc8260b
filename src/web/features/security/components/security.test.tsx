import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SecurityResponse } from '../../../../domain/schemas/second-factor';
import type { MeResponse } from '../../../../domain/schemas/user';
import { errorBody, mockApi, renderApp, signedInMe } from '../../../test/render';
import { admin, officer, pageOf, renderBackOffice } from '../../../test/staff';

const security = (overrides: Partial<SecurityResponse> = {}): SecurityResponse => ({
  secondFactorRequired: false,
  totp: { enabled: false, enabledAt: null },
  recoveryCodesLeft: 0,
  passkeys: [],
  openSessions: 2,
  ...overrides,
});

const setup = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Hiram:olive?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const recoveryCodes = Array.from({ length: 10 }, (_, i) => `abcde-fgh${String(i).padStart(2, '0')}`);

describe('second-factor step', () => {
  const pending: MeResponse = {
    user: admin,
    csrfToken: 'csrf-pending',
    secondFactor: { status: 'pending', methods: ['totp'] },
  };

  it('is shown instead of the back office, and a code finishes the sign-in on the page asked for', async () => {
    const fetchMock = mockApi({
      'GET /api/me': { body: pending },
      'POST /api/auth/second-factor': ({ body }) =>
        (body as { code: string }).code === '123456'
          ? { body: { user: admin, csrfToken: 'csrf-full' } }
          : { status: 400, body: errorBody('SECOND_FACTOR_INVALID', 'x') },
      'GET /api/admin/users': { body: pageOf([]) },
      'GET /api/staff/pending-count': { body: { count: 0 } },
    });
    const { router } = renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Two-step sign-in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the 6-digit code or a recovery code.')).toBeTruthy();
    await user.type(screen.getByLabelText('Code'), '999999');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('That code is not valid or was already used. Try the next code from your app.'),
    ).toBeTruthy();
    await user.clear(screen.getByLabelText('Code'));
    await user.type(screen.getByLabelText('Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    // The page sign-in went to (here the one opened; after an ended session, the one the user was on).
    expect(await screen.findByRole('heading', { name: 'User Management' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/users');
    const verify = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/second-factor');
    expect(new Headers(verify.at(-1)![1]!.headers).get('x-csrf-token')).toBe('csrf-pending');
  });

  it('offers the passkey when the user has one', async () => {
    mockApi({
      'GET /api/me': {
        body: { ...pending, secondFactor: { status: 'pending', methods: ['totp', 'passkey'] } },
      },
    });
    renderApp('/admin/home');
    expect(await screen.findByRole('button', { name: 'Use a passkey' })).toBeTruthy();
  });
});

describe('required set-up', () => {
  it('shows only the set-up, with the QR code and the key as text, then the recovery codes once', async () => {
    let enrolled = false;
    mockApi({
      'GET /api/me': () => ({
        body: enrolled
          ? { user: admin, csrfToken: 'c' }
          : { user: admin, csrfToken: 'c', secondFactor: { status: 'enrolmentRequired', methods: [] } },
      }),
      'POST /api/account/security/totp/setup': { body: setup },
      'POST /api/account/security/totp/confirm': () => {
        enrolled = true;
        return { body: { recoveryCodes } };
      },
      'GET /api/account/security': {
        body: security({ totp: { enabled: true, enabledAt: '2025-01-01T00:00:00Z' } }),
      },
      'GET /api/staff/dashboard': { status: 500, body: errorBody('INTERNAL', 'x') },
      'GET /api/staff/pending-count': { body: { count: 0 } },
    });
    renderApp('/admin/home');
    expect(await screen.findByRole('heading', { name: 'Set up two-step sign-in' })).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));
    expect((await screen.findByRole('img', { name: /QR code/ })).getAttribute('src')).toBe(setup.qrCode);
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await user.type(screen.getByLabelText('6-digit code from the app'), '12ab3456');
    expect((screen.getByLabelText('6-digit code from the app') as HTMLInputElement).value).toBe('123456');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findAllByTestId('recovery-code')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'Set up two-step sign-in' })).toBeNull(),
    );
  });
});

describe('Security page', () => {
  it('shows the factors and sessions, and signs out everywhere after confirmation', async () => {
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(officer),
      'GET /api/staff/pending-count': { body: { count: 0 } },
      'GET /api/account/security': {
        body: security({
          totp: { enabled: true, enabledAt: '2025-03-01T02:30:00.000Z' },
          recoveryCodesLeft: 7,
          passkeys: [
            { id: 'pk1', name: 'Office laptop', createdAt: '2025-03-01T02:30:00.000Z', lastUsedAt: null },
          ],
        }),
      },
      'POST /api/auth/logout-everywhere': { body: { ok: true } },
    });
    const { router } = renderBackOffice('/admin/security');
    expect(await screen.findByRole('heading', { name: 'Security' })).toBeTruthy();
    expect(await screen.findByText('Recovery codes left: 7')).toBeTruthy();
    expect(screen.getByText('Office laptop')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove passkey Office laptop' })).toBeTruthy();
    expect(screen.getByText('Browsers and devices where you are signed in: 2')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auth/logout-everywhere')).toBe(true);
  });

  it('enrols from the page: the recovery codes stay on screen until saved', async () => {
    let enrolled = false;
    mockApi({
      'GET /api/me': signedInMe(officer),
      'GET /api/staff/pending-count': { body: { count: 0 } },
      'GET /api/account/security': () => ({
        body: enrolled
          ? security({
              totp: { enabled: true, enabledAt: '2025-03-01T02:30:00.000Z' },
              recoveryCodesLeft: 10,
            })
          : security(),
      }),
      'POST /api/account/security/totp/setup': { body: setup },
      'POST /api/account/security/totp/confirm': () => {
        enrolled = true;
        return { body: { recoveryCodes } };
      },
    });
    renderBackOffice('/admin/security');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));
    await user.type(await screen.findByLabelText('6-digit code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(await screen.findAllByTestId('recovery-code')).toHaveLength(10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.getAllByTestId('recovery-code')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(await screen.findByText('Recovery codes left: 10')).toBeTruthy();
  });

  it('asks for a passkey name before asking the browser', async () => {
    mockApi({
      'GET /api/me': signedInMe(officer),
      'GET /api/staff/pending-count': { body: { count: 0 } },
      'GET /api/account/security': { body: security() },
    });
    renderBackOffice('/admin/security');
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(screen.getByText('Give the passkey a name, such as the device it is on.')).toBeTruthy();
  });
});
