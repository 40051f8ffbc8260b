import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  defaultPrivacyNotice,
  errorBody,
  makeUser,
  mockApi,
  renderApp,
  type StubResponse,
  signedOutMe,
} from '../../../test/render';

const codeSent: StubResponse<'POST /api/auth/signup/code'> = {
  body: { resendAfterSeconds: 60, expiresInSeconds: 300 },
};

function setup() {
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

async function fillForm(
  user: ReturnType<typeof setup>,
  values: { phone?: string; password?: string; confirmPassword?: string; code?: string; agree?: boolean },
) {
  if (values.phone) await user.type(await screen.findByLabelText('Phone number'), values.phone);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirmPassword)
    await user.type(screen.getByLabelText('Confirm password'), values.confirmPassword);
  if (values.code) await user.type(screen.getByLabelText('Verification code'), values.code);
  if (values.agree !== false) await user.click(await screen.findByRole('checkbox', { name: agreeLabel }));
}

const agreeLabel =
  'I have read the privacy notice and agree to the processing of my personal data as it describes.';

/** Requests other than the session and the privacy notice the page loads on its own. */
const sent = (fetchMock: ReturnType<typeof mockApi>) =>
  fetchMock.mock.calls
    .map(([url]) => url)
    .filter((url) => url !== '/api/me' && url !== '/api/privacy/notice');

const validForm = {
  phone: '09171234567',
  password: 'correct-horse',
  confirmPassword: 'correct-horse',
  code: '123456',
};

function signUpButton() {
  return screen.getByRole('button', { name: /^(Sign Up|Signing up\.\.\.)$/ }) as HTMLButtonElement;
}

describe('sign-up page', () => {
  it('shows the privacy notice, and refuses to sign up until the box is ticked', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Privacy notice' })).toBeTruthy();
    expect(screen.getByText('Version 2026-11-23')).toBeTruthy();
    expect(screen.getByText('en contact text. DPO: dpo@example.com')).toBeTruthy();
    const user = userEvent.setup();
    await fillForm(user, { ...validForm, agree: false });
    await user.click(signUpButton());
    expect(screen.getByRole('alert').textContent).toBe(
      'Please read the privacy notice and tick the box to agree before continuing.',
    );
    expect(sent(fetchMock)).toEqual([]);
  });

  it('asks again when the notice changed while the form was open', async () => {
    let notices = 0;
    mockApi({
      'GET /api/me': signedOutMe,
      'GET /api/privacy/notice': () => {
        notices += 1;
        return { body: defaultPrivacyNotice(notices === 1 ? '2026-11-23' : '2027-01-01') };
      },
      'POST /api/auth/signup': {
        status: 409,
        body: errorBody(
          'PRIVACY_NOTICE_OUTDATED',
          'The privacy notice has just been updated. Please read the new version and agree to it.',
          {
            fields: {
              privacyNoticeVersion: {
                code: 'PRIVACY_NOTICE_OUTDATED',
                message:
                  'The privacy notice has just been updated. Please read the new version and agree to it.',
              },
            },
          },
        ),
      },
    });
    renderApp('/signup');
    const user = userEvent.setup();
    await fillForm(user, validForm);
    await user.click(signUpButton());
    expect(
      await screen.findByText(
        'The privacy notice has just been updated. Please read the new version and agree to it.',
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Version 2027-01-01')).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: agreeLabel }) as HTMLInputElement).checked).toBe(false);
  });

  it('shows the title, the code field and the safety notice', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeTruthy();
    const code = screen.getByLabelText('Verification code');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('off');
    expect(code.getAttribute('maxlength')).toBe('6');
    expect(
      screen.getByText('We will never ask you for this code or for a fee to release your loan.'),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
  });

  it('validates the phone before sending a code', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/signup/code': codeSent });
    renderApp('/signup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '12345');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByText('Phone number must be at least 10 digits and contain only numbers')).toBeTruthy();
    expect(sent(fetchMock)).toEqual([]);
  });

  it('validates the phone on submit with the shared schema', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/signup');
    const user = userEvent.setup();
    await fillForm(user, { ...validForm, phone: '0917abc4567' });
    await user.click(signUpButton());
    expect(screen.getByText('Phone number must be at least 10 digits and contain only numbers')).toBeTruthy();
    expect(sent(fetchMock)).toEqual([]);
  });

  it('says "Passwords do not match" when the confirmation differs', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/signup');
    const user = userEvent.setup();
    await fillForm(user, { ...validForm, confirmPassword: 'correct-horsf' });
    await user.click(signUpButton());
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(screen.getByLabelText('Confirm password').getAttribute('aria-invalid')).toBe('true');
    expect(sent(fetchMock)).toEqual([]);
  });

  it('asks to fill in all fields when submitted empty', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/signup');
    const user = userEvent.setup();
    await screen.findByLabelText('Phone number');
    await user.click(signUpButton());
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all fields');
  });

  it('sends the code, then counts down 60 s before allowing a resend', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/signup/code': codeSent });
    renderApp('/signup');
    await screen.findByLabelText('Phone number');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = setup();
    await user.type(screen.getByLabelText('Phone number'), '09171234567');
    await user.click(screen.getByRole('button', { name: 'Send code' }));

    const counting = (await screen.findByRole('button', { name: /^Resend in \d+s$/ })) as HTMLButtonElement;
    expect(counting.textContent).toBe('Resend in 60s');
    expect(counting.disabled).toBe(true);
    const codeCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/signup/code');
    // With the screen's language: the SMS is written in it (issue #36).
    expect(JSON.parse(String(codeCall?.[1]?.body))).toEqual({ phone: '09171234567', language: 'en' });

    await act(async () => vi.advanceTimersByTime(3000));
    expect(screen.getByRole('button', { name: 'Resend in 57s' })).toBeTruthy();

    await act(async () => vi.advanceTimersByTime(57_000));
    const again = screen.getByRole('button', { name: 'Send code' }) as HTMLButtonElement;
    expect(again.disabled).toBe(false);
    await user.click(again);
    await screen.findByRole('button', { name: 'Resend in 60s' });
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/auth/signup/code')).toHaveLength(2);
  });

  it('shows the server wait time when a code was requested too soon', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/signup/code': {
        status: 429,
        body: errorBody('CODE_RESEND_TOO_SOON', 'Please wait 42 seconds before requesting another code.', {
          params: { n: 42 },
        }),
      },
    });
    renderApp('/signup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '09171234567');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please wait 42 seconds before requesting another code.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Resend in 42s' })).toBeTruthy();
  });

  it('shows the hourly code ceiling refusal in the form', async () => {
    const message = 'Too many verification codes have been requested. Please try again in 37 minutes.';
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/signup/code': {
        status: 429,
        body: errorBody('CODE_LIMIT_REACHED', message, { params: { n: 37 } }),
      },
    });
    renderApp('/signup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '09171234567');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
  });

  it('shows "Phone number already registered" under the phone field', async () => {
    // Only the holder of the phone's code learns it (issue #33): the answer to the sign-up itself.
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/signup': {
        status: 409,
        body: errorBody('PHONE_TAKEN', 'Phone number already registered', {
          fields: { phone: { code: 'PHONE_TAKEN', message: 'Phone number already registered' } },
        }),
      },
    });
    renderApp('/signup');
    const user = userEvent.setup();
    await fillForm(user, validForm);
    await user.click(signUpButton());
    const message = await screen.findByText('Phone number already registered');
    const phone = screen.getByLabelText('Phone number');
    expect(phone.getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows "Signing up..." while the request runs, then signs the borrower in and goes on to apply (issue #32)', async () => {
    let finish: (response: StubResponse<'POST /api/auth/signup'>) => void = () => {};
    const fetchMock = mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/signup': () =>
        new Promise<StubResponse<'POST /api/auth/signup'>>((resolve) => {
          finish = resolve;
        }),
    });
    const { router } = renderApp('/signup');
    const user = userEvent.setup();
    await fillForm(user, validForm);
    await user.click(signUpButton());

    await waitFor(() => expect(signUpButton().textContent).toBe('Signing up...'));
    expect(signUpButton().disabled).toBe(true);
    const signupCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/signup');
    expect(JSON.parse(String(signupCall?.[1]?.body))).toEqual({
      ...validForm,
      privacyNoticeVersion: '2026-11-23',
      // The account keeps the screen's language for every SMS (issue #36).
      language: 'en',
    });

    const borrower = makeUser({ phone: '09171234567' });
    await act(async () => finish({ status: 201, body: { user: borrower, csrfToken: 'csrf-new' } }));
    // Signed in by the answer itself: no second sign-in, straight on to step 1.
    expect(await screen.findByText('Registration successful! You are signed in.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/application'));
    expect(await screen.findByRole('heading', { name: 'Loan Application' })).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/auth/login')).toEqual([]);
  });

  it.each([
    '+63 917 123 4567',
    '0917-123-4567',
    '(0917) 123 4567',
    '639171234567',
    '+63-917-123-4567',
    '０９１７ １２３ ４５６７',
  ])('takes the phone written %j and sends it as 09171234567', async (written) => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/signup/code': codeSent });
    renderApp('/signup');
    const user = userEvent.setup();
    const phone = await screen.findByLabelText('Phone number');
    // Typed as a phone keypad offers it: + and spaces too (no numeric-only keypad).
    expect(phone.getAttribute('type')).toBe('tel');
    expect(phone.getAttribute('inputmode')).toBeNull();
    await user.type(phone, written);
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByRole('button', { name: 'Resend in 60s' });
    const codeCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/signup/code');
    // With the screen's language: the SMS is written in it (issue #36).
    expect(JSON.parse(String(codeCall?.[1]?.body))).toEqual({ phone: '09171234567', language: 'en' });
  });

  it.each([
    ['a landline', '(02) 8123 4567'],
    ['a number abroad', '+1 415 555 0100'],
  ])('refuses %s with the SPEC message, sending nothing', async (_name, written) => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/signup');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), written);
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByText('Phone number must be at least 10 digits and contain only numbers')).toBeTruthy();
    expect(sent(fetchMock)).toEqual([]);
  });

  it('says "Failed to register. Try again." when the server cannot be reached', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/signup': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderApp('/signup');
    const user = userEvent.setup();
    await fillForm(user, validForm);
    await user.click(signUpButton());
    expect(await screen.findByText('Failed to register. Try again.')).toBeTruthy();
    expect(signUpButton().disabled).toBe(false);
  });
});
