import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  errorBody,
  makeUser,
  mockApi,
  renderApp,
  type StubResponse,
  signedInMe,
  signedOutMe,
} from '../../../test/render';

const codeSent: StubResponse<'POST /api/auth/password-reset/code'> = {
  body: { resendAfterSeconds: 60, expiresInSeconds: 300 },
};

const validForm = {
  phone: '09171234567',
  code: '123456',
  password: 'kalamansi tree 27',
  confirmPassword: 'kalamansi tree 27',
};

function setup() {
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

async function fillForm(user: ReturnType<typeof setup>, values: Partial<typeof validForm>) {
  if (values.phone) await user.type(await screen.findByLabelText('Phone number'), values.phone);
  if (values.code) await user.type(screen.getByLabelText('Verification code'), values.code);
  if (values.password) await user.type(screen.getByLabelText('New password'), values.password);
  if (values.confirmPassword)
    await user.type(screen.getByLabelText('Confirm new password'), values.confirmPassword);
}

const submitButton = () =>
  screen.getByRole('button', { name: /^(Set New Password|Saving\.\.\.)$/ }) as HTMLButtonElement;
const posted = (fetchMock: ReturnType<typeof mockApi>, url: string) =>
  fetchMock.mock.calls.filter(([called]) => called === url).map(([, init]) => JSON.parse(String(init?.body)));

describe('forgot-password page', () => {
  it('shows the title, the code field, the safety notice and the way back to log in', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/forgot-password');
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeTruthy();
    const code = screen.getByLabelText('Verification code');
    expect(code.getAttribute('autocomplete')).toBe('off');
    expect(code.getAttribute('maxlength')).toBe('6');
    expect(screen.getByLabelText('New password').getAttribute('autocomplete')).toBe('new-password');
    expect(
      screen.getByText('We will never ask you for this code or for a fee to release your loan.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Log In' }).getAttribute('href')).toBe('/login');
    expect(document.title).toBe('Reset Password · Hiram');
  });

  it('a signed-in user goes to their home instead', async () => {
    mockApi({ 'GET /api/me': signedInMe(makeUser({ role: 'borrower' })) });
    const { router } = renderApp('/forgot-password');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/forgot-password'));
  });

  it('sends a code to the phone, says so without telling whether it has an account, then counts down', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/password-reset/code': codeSent });
    renderApp('/forgot-password');
    await screen.findByLabelText('Phone number');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = setup();
    await user.type(screen.getByLabelText('Phone number'), '09171234567');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(
      await screen.findByText('If 09171234567 belongs to an account, a code is on its way to it.'),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend in 60s' })).toBeTruthy();
    expect(posted(fetchMock, '/api/auth/password-reset/code')).toEqual([{ phone: '09171234567' }]);
    await act(async () => vi.advanceTimersByTime(60_000));
    expect((screen.getByRole('button', { name: 'Send code' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('checks the phone before sending a code', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '12345');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByText('Phone number must be at least 10 digits and contain only numbers')).toBeTruthy();
    // No code was asked for. (Only that: a request another test's app left in flight may still land here.)
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/auth/password-reset/code');
  });

  it('shows the server wait when a code was asked for too soon', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/password-reset/code': {
        status: 429,
        body: errorBody('CODE_RESEND_TOO_SOON', 'Please wait 42 seconds before requesting another code.', {
          params: { n: 42 },
        }),
      },
    });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '09171234567');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please wait 42 seconds before requesting another code.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend in 42s' })).toBeTruthy();
  });

  it('says "Passwords do not match" without calling the server', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await fillForm(user, { ...validForm, confirmPassword: 'kalamansi tree 28' });
    await user.click(submitButton());
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    // The page's own reads (session, settings) are fine; nothing was sent to reset the password.
    const sent = fetchMock.mock.calls.map(([url]) => String(url));
    expect(sent.filter((url) => url.includes('/api/auth/password-reset'))).toEqual([]);
    expect(sent.length).toBeGreaterThan(0);
  });

  it("shows the server's message under the password when it is too easy to guess", async () => {
    const message = 'This password is too easy to guess. Add more words or characters.';
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/password-reset': {
        status: 400,
        body: errorBody('PASSWORD_TOO_WEAK', message, {
          fields: { password: { code: 'PASSWORD_TOO_WEAK', message } },
        }),
      },
    });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await fillForm(user, { ...validForm, password: 'password123', confirmPassword: 'password123' });
    await user.click(submitButton());
    const shown = await screen.findByText(message);
    expect(screen.getByLabelText('New password').getAttribute('aria-describedby')).toContain(shown.id);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows a wrong or expired code under the code field', async () => {
    const message = 'Verification code is incorrect or expired';
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/password-reset': {
        status: 400,
        body: errorBody('CODE_INVALID', message, { fields: { code: { code: 'CODE_INVALID', message } } }),
      },
    });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await fillForm(user, validForm);
    await user.click(submitButton());
    const shown = await screen.findByText(message);
    expect(screen.getByLabelText('Verification code').getAttribute('aria-describedby')).toContain(shown.id);
  });

  it('sends phone, code and the new password, says it worked, then goes to /login after 2 s', async () => {
    let finish: (response: StubResponse<'POST /api/auth/password-reset'>) => void = () => {};
    const fetchMock = mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/password-reset': () =>
        new Promise<StubResponse<'POST /api/auth/password-reset'>>((resolve) => {
          finish = resolve;
        }),
    });
    const { router } = renderApp('/forgot-password');
    await screen.findByLabelText('Phone number');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = setup();
    await fillForm(user, validForm);
    await user.click(submitButton());
    await waitFor(() => expect(submitButton().textContent).toBe('Saving...'));
    expect(submitButton().disabled).toBe(true);
    expect(posted(fetchMock, '/api/auth/password-reset')).toEqual([validForm]);

    await act(async () => finish({ status: 200, body: { ok: true } }));
    expect(
      await screen.findByText(
        'Your password has been reset and you were signed out everywhere. Redirecting to login...',
      ),
    ).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(1900));
    expect(router.state.location.pathname).toBe('/forgot-password');
    await act(async () => vi.advanceTimersByTime(200));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeTruthy();
  });
});
