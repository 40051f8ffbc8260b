import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryFileStore, setDraftFileStore } from '../lib/application-draft/file-store';
import { draftStorageKey } from '../lib/application-draft/key';
import { errorBody, makeUser, mockApi, renderApp, signedInMe, signedOutMe } from '../test/render';

/** A saved step-2 draft as the application keeps it (the text part). */
const updateTextDraftForTest = (userId: string) =>
  window.localStorage.setItem(
    draftStorageKey(userId),
    JSON.stringify({ version: 1, info: { fullName: 'Ana' } }),
  );

const borrower = makeUser();
const officer = makeUser({ role: 'officer', username: 'olive', phone: '09170000001' });

async function expectPath(router: ReturnType<typeof renderApp>['router'], pathname: string) {
  await waitFor(() => expect(router.state.location.pathname).toBe(pathname));
}

describe('session restore', () => {
  it('shows "Loading..." until GET /api/me answers', async () => {
    let answer: () => void = () => {};
    mockApi({
      'GET /api/me': () =>
        new Promise((resolve) => {
          answer = () => resolve(signedOutMe);
        }),
    });
    renderApp('/login');
    expect(await screen.findByText('Loading...')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Welcome' })).toBeNull();
    answer();
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeTruthy();
    expect(screen.queryByText('Loading...')).toBeNull();
  });

  it("asks for the settings and, on a loan page, the borrower's application and products alongside the session", async () => {
    let answer: () => void = () => {};
    let sessionAnswered = false;
    let askedBeforeSession = false;
    const fetchMock = mockApi({
      'GET /api/me': () =>
        new Promise((resolve) => {
          answer = () => {
            sessionAnswered = true;
            resolve(signedInMe(borrower));
          };
        }),
      'GET /api/applications/mine': () => {
        askedBeforeSession = !sessionAnswered;
        return { body: { application: null, canApply: true } };
      },
    });
    renderApp('/loan');
    // All four under way before GET /api/me has answered (the products offered: docs/decisions/034).
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => url).sort()).toEqual([
        '/api/applications/mine',
        '/api/me',
        '/api/products',
        '/api/settings',
      ]),
    );
    expect(askedBeforeSession).toBe(true);
    answer();
    expect(await screen.findByRole('heading', { name: 'Loan Application' })).toBeTruthy();
    // The step-1 page shows the application fetched alongside the session, without asking again.
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/applications/mine')).toHaveLength(1);
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/products')).toHaveLength(1);
  });

  it('offers a retry when the server cannot be reached', async () => {
    let reachable = false;
    mockApi({
      'GET /api/me': () => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return signedOutMe;
      },
    });
    renderApp('/login');
    expect(
      await screen.findByText(
        'Cannot reach the server. Check your connection and try again.',
        {},
        { timeout: 8000 },
      ),
    ).toBeTruthy();
    reachable = true;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeTruthy();
  }, 15_000);
});

describe('signed out', () => {
  it.each(['/', '/admin/home', '/admin', '/loan', '/loan/application', '/wallet', '/account', '/nowhere'])(
    '%s redirects to /login',
    async (path) => {
      mockApi({ 'GET /api/me': signedOutMe });
      const { router } = renderApp(path);
      expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/login');
    },
  );

  it('may open /signup', async () => {
    mockApi({ 'GET /api/me': signedOutMe });
    const { router } = renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Create Account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signup');
  });
});

describe('borrower', () => {
  it.each([
    ['/', '/loan/application'],
    ['/loan', '/loan/application'],
    ['/admin/home', '/loan/application'],
    ['/admin', '/loan/application'],
    ['/login', '/loan/application'],
    ['/signup', '/loan/application'],
    ['/nowhere', '/loan/application'],
  ])('%s goes to %s', async (path, target) => {
    mockApi({ 'GET /api/me': signedInMe(borrower) });
    const { router } = renderApp(path);
    await expectPath(router, target);
    expect(await screen.findByRole('heading', { name: 'Loan Application' })).toBeTruthy();
  });

  it('has a bottom navigation with Home, Wallet and Account', async () => {
    mockApi({ 'GET /api/me': signedInMe(borrower) });
    renderApp('/loan/application');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/loan/application'],
      ['Wallet', '/wallet'],
      ['Account', '/account'],
    ]);
    expect(links[0]?.getAttribute('aria-current')).toBe('page');
  });

  it('shows "Page Not Found" for an unknown /loan sub-path', async () => {
    mockApi({ 'GET /api/me': signedInMe(borrower) });
    renderApp('/loan/nothing-here');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
  });

  it('switches the language and keeps the choice', async () => {
    mockApi({ 'GET /api/me': signedInMe(borrower) });
    renderApp('/loan/application');
    await screen.findByRole('heading', { name: 'Loan Application' });
    await userEvent.click(screen.getByRole('button', { name: 'Language' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'ខ្មែរ' }));
    expect(await screen.findByRole('heading', { name: 'ពាក្យស្នើសុំកម្ចី' })).toBeTruthy();
    expect(window.localStorage.getItem('hiram.lang')).toBe('km');
    expect(document.documentElement.lang).toBe('km');
  });

  it('logs out through the API with the CSRF token and lands on /login', async () => {
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(borrower),
      'POST /api/auth/logout': { body: { ok: true } },
    });
    // A half-filled application with its pictures: a shared phone must not keep them after a sign-out.
    const files = createMemoryFileStore();
    setDraftFileStore(files);
    updateTextDraftForTest(borrower.id);
    await files.put(`${borrower.id}/selfie`, { blob: new Blob(['x']), name: 'selfie.jpg' });
    try {
      const { router } = renderApp('/loan/application');
      await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
      expect(await screen.findByRole('heading', { name: 'Welcome' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/login');
      const call = fetchMock.mock.calls.find(([url]) => url === '/api/auth/logout');
      expect(new Headers(call?.[1]?.headers).get('x-csrf-token')).toBe('csrf-test-token');
      await waitFor(() => expect(files.keys()).toEqual([]));
      expect(window.localStorage.getItem(draftStorageKey(borrower.id))).toBeNull();
    } finally {
      setDraftFileStore(null);
    }
  });
});

describe('staff', () => {
  // The back office is a lazily loaded chunk; its first import (transforming every staff page) must not
  // count against the first test's wait.
  beforeAll(() => import('./back-office'), 60_000);

  it.each([
    ['/', '/admin/home'],
    ['/admin', '/admin/home'],
    ['/loan', '/admin/home'],
    ['/loan/application', '/admin/home'],
    ['/wallet', '/admin/home'],
    ['/account', '/admin/home'],
    ['/login', '/admin/home'],
    ['/nowhere', '/admin/home'],
  ])('%s goes to %s', async (path, target) => {
    mockApi({ 'GET /api/me': signedInMe(officer) });
    const { router } = renderApp(path);
    await expectPath(router, target);
    expect(await screen.findByRole('heading', { name: 'Home Page Summary' })).toBeTruthy();
  });

  it('shows the signed-in username and role and the nav items for the role', async () => {
    mockApi({ 'GET /api/me': signedInMe(officer) });
    renderApp('/admin/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByText('olive')).toBeTruthy();
    expect(within(nav).getByText('Officer')).toBeTruthy();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([
      '/admin/home',
      '/admin/pending',
      '/admin/approved',
      '/admin/servicing',
      '/admin/disbursements',
      '/admin/repayments',
      '/admin/overdue',
      '/admin/account-closures',
      '/admin/complaints',
      '/admin/products',
    ]);
  });

  it('shows User Management and Audit Log to admins only', async () => {
    mockApi({ 'GET /api/me': signedInMe(makeUser({ role: 'admin', username: 'ada' })) });
    renderApp('/admin/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const hrefs = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toContain('/admin/users');
    expect(hrefs).toContain('/admin/audit');
  });
});

describe('forced password change', () => {
  const pending = makeUser({ role: 'admin', username: 'admin', phone: null, mustChangePassword: true });

  it.each(['/', '/admin/home', '/loan', '/nowhere'])('%s shows the change-password page', async (path) => {
    mockApi({ 'GET /api/me': signedInMe(pending) });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Change your password' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Home Page Summary' })).toBeNull();
  });

  it('validates with the shared schema, shows server field errors, then goes home', async () => {
    let attempts = 0;
    const fetchMock = mockApi({
      'GET /api/me': signedInMe(pending),
      'POST /api/auth/password': ({ body }) => {
        attempts += 1;
        if ((body as { currentPassword: string }).currentPassword !== 'temporary-1') {
          return {
            status: 400,
            body: errorBody('CURRENT_PASSWORD_WRONG', 'Current password is incorrect', {
              fields: {
                currentPassword: { code: 'CURRENT_PASSWORD_WRONG', message: 'Current password is incorrect' },
              },
            }),
          };
        }
        return signedInMe({ ...pending, mustChangePassword: false });
      },
    });
    const { router } = renderApp('/admin/home');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password'), 'temporary-2');
    await user.type(screen.getByLabelText('New password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Confirm new password'), 'brand-new-pasz');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(attempts).toBe(0);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'brand-new-pass');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'temporary-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('heading', { name: 'Home Page Summary' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/home');
    const call = fetchMock.mock.calls.filter(([url]) => url === '/api/auth/password').at(-1);
    expect(new Headers(call?.[1]?.headers).get('x-csrf-token')).toBe('csrf-test-token');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      currentPassword: 'temporary-1',
      newPassword: 'brand-new-pass',
      confirmPassword: 'brand-new-pass',
    });
  });
});
