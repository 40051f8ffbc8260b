import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { myApplicationQuery, useMyApplication } from '../features/application/api/my-application';
import { privacyNoticeQuery } from '../lib/privacy-notice-query';
import { sessionQuery } from '../lib/session';
import { makeUser, mockApi } from '../test/render';
import { createQueryClient } from './query-client';
import { prefetchPageData, prefetchStartData } from './start-data';

const borrower = makeUser();
const officer = makeUser({ role: 'officer', username: 'olive', phone: '09170000001' });

function asked(paths: { user: Parameters<typeof prefetchStartData>[2]; pathname: string }[]) {
  const fetchMock = mockApi({
    'GET /api/applications/mine': { body: { application: null, canApply: true } },
  });
  const queryClient = new QueryClient();
  for (const { user, pathname } of paths) prefetchStartData(queryClient, pathname, user);
  return fetchMock.mock.calls.map(([url]) => url).sort();
}

describe('prefetchStartData (what main.tsx starts before the first render, and the session gate on each path)', () => {
  it('asks for nothing on the sign-in pages', () => {
    for (const pathname of ['/login', '/signup', '/forgot-password']) {
      expect(asked([{ user: undefined, pathname }])).toEqual([]);
    }
  });

  it('asks for the settings at once, before the session is known, and only once', () => {
    expect(asked([{ user: undefined, pathname: '/wallet' }])).toEqual(['/api/settings']);
    expect(asked([{ user: undefined, pathname: '/' }])).toEqual(['/api/settings']);
    expect(
      asked([
        { user: undefined, pathname: '/loan/application' },
        { user: borrower, pathname: '/loan/application' },
        { user: borrower, pathname: '/loan/application' },
      ]),
    ).toEqual(['/api/applications/mine', '/api/products', '/api/settings']);
  });

  it('asks for the application and the products offered alongside the session on the loan pages, and only once', () => {
    for (const pathname of ['/loan', '/loan/application', '/loan/info']) {
      expect(asked([{ user: undefined, pathname }])).toEqual([
        '/api/applications/mine',
        '/api/products',
        '/api/settings',
      ]);
    }
    expect(
      asked([
        { user: undefined, pathname: '/loan/application' },
        { user: borrower, pathname: '/loan/application' },
      ]),
    ).toEqual(['/api/applications/mine', '/api/products', '/api/settings']);
  });

  it('a refusal of the application asked for before the session was known leaves the session alone', async () => {
    const fetchMock = mockApi({
      'GET /api/me': { body: { user: null, csrfToken: null } },
      'GET /api/applications/mine': {
        status: 401,
        body: { error: { code: 'UNAUTHENTICATED', message: 'Please log in.', fields: {} } },
      },
    });
    const queryClient = createQueryClient();
    queryClient.setQueryData(sessionQuery.queryKey, { user: null, csrfToken: null });
    prefetchStartData(queryClient, '/loan/application', undefined);
    await waitFor(() => expect(queryClient.getQueryState(myApplicationQuery.queryKey)?.status).toBe('error'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queryClient.getQueryState(sessionQuery.queryKey)?.isInvalidated).toBe(false);
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/me')).toHaveLength(0);

    // The same refusal once the session is known does send the app to re-read it.
    mockApi({
      'GET /api/me': { body: { user: null, csrfToken: null } },
      'GET /api/applications/mine': {
        status: 401,
        body: { error: { code: 'UNAUTHENTICATED', message: 'Please log in.', fields: {} } },
      },
    });
    await queryClient.fetchQuery(myApplicationQuery).catch(() => undefined);
    expect(queryClient.getQueryState(sessionQuery.queryKey)?.isInvalidated).toBe(true);
  });

  it("asks for a borrower's application only on their way to the loan pages, once they may see them", () => {
    for (const pathname of ['/', '/loan', '/loan/application', '/loan/info']) {
      expect(asked([{ user: borrower, pathname }])).toEqual([
        '/api/applications/mine',
        '/api/products',
        '/api/settings',
      ]);
    }
    expect(asked([{ user: borrower, pathname: '/wallet' }])).toEqual(['/api/settings']);
    expect(asked([{ user: officer, pathname: '/' }])).toEqual(['/api/settings']);
    for (const blocked of [{ mustChangePassword: true }, { privacyConsentRequired: true }]) {
      expect(asked([{ user: { ...borrower, ...blocked }, pathname: '/loan' }])).toEqual(['/api/settings']);
    }
  });

  it('lets the step-1 page show the application fetched before it mounted, without asking again', async () => {
    const fetchMock = mockApi({
      'GET /api/applications/mine': { body: { application: null, canApply: true } },
    });
    const queryClient = new QueryClient();
    prefetchStartData(queryClient, '/loan/application', borrower);
    await waitFor(() => expect(queryClient.getQueryData(myApplicationQuery.queryKey)).toBeTruthy());
    const { result } = renderHook(() => useMyApplication(), {
      wrapper: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
    });
    expect(result.current.data?.canApply).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/applications/mine')).toHaveLength(1);
  });
});

describe('prefetchPageData (what the first render of a path also waits for)', () => {
  it('asks for the privacy notice on /signup, once, and resolves when it is in; nothing elsewhere', async () => {
    const fetchMock = mockApi({});
    const queryClient = new QueryClient();
    for (const pathname of ['/login', '/forgot-password', '/loan/application', '/wallet'])
      await prefetchPageData(queryClient, pathname);
    expect(fetchMock).not.toHaveBeenCalled();
    await prefetchPageData(queryClient, '/signup');
    expect(queryClient.getQueryData(privacyNoticeQuery.queryKey)?.version).toBeTruthy();
    await prefetchPageData(queryClient, '/signup');
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/privacy/notice']);
  });

  it('resolves when the notice cannot be fetched, for the page to show the failure', async () => {
    mockApi({
      'GET /api/privacy/notice': {
        status: 500,
        body: { error: { code: 'INTERNAL', message: 'x', fields: {} } },
      },
    });
    const queryClient = new QueryClient();
    await prefetchPageData(queryClient, '/signup');
    expect(queryClient.getQueryState(privacyNoticeQuery.queryKey)?.status).toBe('error');
  });
});
