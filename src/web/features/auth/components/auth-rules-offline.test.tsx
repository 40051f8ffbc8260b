import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, signedOutMe } from '../../../test/render';

// The signed-out forms' rules come in a chunk of their own (auth-rules.ts); here it cannot be fetched, as
// on a phone that lost its connection after the page came.
vi.mock('../../../../domain/schemas/auth', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const sentTo = (fetchMock: ReturnType<typeof mockApi>, part: string) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes(part));

describe('a signed-out form whose rules cannot be fetched', () => {
  it('sign-in says it failed, sends nothing and can be tried again', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number or username'), '09171234567');
    await user.type(screen.getByLabelText('Password', { exact: true }), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Login failed. Please try again.')).toBeTruthy();
    expect(sentTo(fetchMock, '/api/auth/login')).toEqual([]);
    expect((screen.getByRole('button', { name: 'Log In' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a forgotten password says it failed and sends nothing', async () => {
    const fetchMock = mockApi({ 'GET /api/me': signedOutMe });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Phone number'), '09171234567');
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'kalamansi tree 27');
    await user.type(screen.getByLabelText('Confirm new password'), 'kalamansi tree 27');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText('Something went wrong. Try again.')).toBeTruthy();
    expect(sentTo(fetchMock, '/api/auth/password-reset')).toEqual([]);
  });
});
