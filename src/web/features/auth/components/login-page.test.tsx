import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import i18n from '../../../lib/i18n';
import { errorBody, makeUser, mockApi, renderApp, signedInMe, signedOutMe } from '../../../test/render';

async function fillAndSubmit(identifier: string, password: string) {
  const user = userEvent.setup();
  const identifierInput = await screen.findByLabelText('Phone number or username');
  if (identifier) await user.type(identifierInput, identifier);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('login page', () => {
  it('shows the title, fields and a link to sign up', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeTruthy();
    expect(screen.getByLabelText('Phone number or username')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/signup');
  });

  it('"Forgot password?" opens the reset page', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    const { router } = renderApp('/login');
    const link = await screen.findByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe('/forgot-password');
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it('shows and hides the password with a labelled toggle', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/login');
    const password = (await screen.findByLabelText('Password')) as HTMLInputElement;
    expect(password.type).toBe('password');
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.type).toBe('text');
    await userEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
    expect(document.title).toBe('Welcome · Hiram');
  });

  it('asks for both fields when submitted empty, without calling the server', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/login');
    await fillAndSubmit('', '');
    expect(screen.getAllByText('Please enter phone or username and password')).toHaveLength(1);
    expect(screen.getByLabelText('Phone number or username').getAttribute('aria-invalid')).toBe('true');
    // Nothing was sent to sign in (another test's app may still have a request in flight).
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain('/api/auth/login');
  });

  it('still asks for the password when only the identifier is given', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/login');
    await fillAndSubmit('alice', '');
    expect(screen.getByRole('alert').textContent).toBe('Please enter phone or username and password');
  });

  it("shows the server's message on 401", async () => {
    const fetchMock = mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/login': {
        status: 401,
        body: errorBody('INVALID_CREDENTIALS', 'Incorrect phone, username or password'),
      },
    });
    renderApp('/login');
    await fillAndSubmit('09170000000', 'wrong-password');
    expect(await screen.findByText('Incorrect phone, username or password')).toBeTruthy();
    const loginCall = fetchMock.mock.calls.find(([url]) => url === '/api/auth/login');
    expect(JSON.parse(String(loginCall?.[1]?.body))).toEqual({
      identifier: '09170000000',
      password: 'wrong-password',
    });
  });

  it('falls back to the server message for a code the web does not know, with params', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/login': {
        status: 400,
        body: errorBody('BRAND_NEW_CODE', 'A message only the server knows'),
      },
    });
    renderApp('/login');
    await fillAndSubmit('alice', 'secret-pass');
    expect(await screen.findByText('A message only the server knows')).toBeTruthy();
  });

  it('fills {{n}} from the error params', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/login': {
        status: 429,
        body: errorBody('TOO_MANY_ATTEMPTS', 'Too many attempts. Try again in 12 minutes.', {
          params: { n: 12 },
        }),
      },
    });
    renderApp('/login');
    await fillAndSubmit('alice', 'secret-pass');
    expect(await screen.findByText('Too many attempts. Try again in 12 minutes.')).toBeTruthy();
  });

  it('says "Login failed. Please try again." when the server cannot be reached', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/login': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    renderApp('/login');
    await fillAndSubmit('alice', 'secret-pass');
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
  });

  it('sends a borrower to /loan/application after login', async () => {
    mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/login': signedInMe(makeUser()) });
    const { router } = renderApp('/login');
    await fillAndSubmit('09171234567', 'right-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/application'));
    expect(screen.getByRole('heading', { name: 'Loan Application' })).toBeTruthy();
  });

  it('sends staff to /admin/home after login', async () => {
    mockApi({
      'GET /api/me': signedOutMe,
      'POST /api/auth/login': signedInMe(makeUser({ role: 'officer', username: 'olive' })),
    });
    const { router } = renderApp('/login');
    await fillAndSubmit('olive', 'right-password');
    expect(await screen.findByRole('heading', { name: 'Home Page Summary' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/home');
  });
  it('on a device where no language was chosen, the screen follows the language the account keeps', async () => {
    // The test setup's English counts as a choice made here: a new phone has none.
    window.localStorage.clear();
    mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/login': signedInMe(makeUser({ language: 'km' })) });
    const { router } = renderApp('/login');
    await fillAndSubmit('09171234567', 'right-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/application'));
    const title = i18n.getFixedT('km')('borrower.title.application');
    expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    expect(window.localStorage.getItem('hiram.lang')).toBe('km');
  });

  it('keeps the language the reader chose on this device', async () => {
    // Chosen here (beforeEach's switch to English is kept as this device's choice).
    expect(window.localStorage.getItem('hiram.lang')).toBe('en');
    mockApi({ 'GET /api/me': signedOutMe, 'POST /api/auth/login': signedInMe(makeUser({ language: 'km' })) });
    const { router } = renderApp('/login');
    await fillAndSubmit('09171234567', 'right-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/loan/application'));
    expect(screen.getByRole('heading', { name: 'Loan Application' })).toBeTruthy();
    expect(i18n.language).toBe('en');
  });
});
