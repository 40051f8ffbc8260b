import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTranslation } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { sessionQueryKey } from '../lib/session';
import { makeUser, mockApi, renderWithProviders, signedInMe } from '../test/render';
import { LanguageSwitch } from './language-switch';

function Page() {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t('borrower.title.wallet')}</h1>
      <LanguageSwitch />
    </>
  );
}

describe('LanguageSwitch', () => {
  // First: the menu module is loaded once per test file, and this test needs the plain button it replaces.
  it('keeps the keyboard focus on the button while its menu loads, and opens it with Enter', async () => {
    renderWithProviders(<Page />);
    await userEvent.tab();
    // The menu replaces the plain button once loaded; the focus moves with it.
    await vi.waitFor(() => expect(document.activeElement?.getAttribute('aria-expanded')).not.toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Language' }));
    await userEvent.keyboard('{Enter}');
    expect(await screen.findAllByRole('menuitem')).toHaveLength(4);
  });
  it('offers Filipino, switches to it and keeps the choice', async () => {
    renderWithProviders(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Language' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['English', 'Filipino', '中文', 'ខ្មែរ']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Filipino' }));
    expect(await screen.findByRole('heading', { name: 'Aking Wallet' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Wika' })).toBeTruthy();
    expect(window.localStorage.getItem('hiram.lang')).toBe('fil');
    expect(document.documentElement.lang).toBe('fil');
  });
  it('tells the server the language of a signed-in user, for the SMS it sends them (issue #36)', async () => {
    const fetchMock = mockApi({ 'POST /api/account/language': { body: { language: 'km' } } });
    // A plain client: shared components' tests do not reach into the app's set-up (dependency rules).
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionQueryKey, signedInMe(makeUser()).body);
    renderWithProviders(<Page />, queryClient);
    await userEvent.click(screen.getByRole('button', { name: /Language|Wika/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'ខ្មែរ' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.map(([url, init]) => [url, init?.method, init?.body])).toEqual([
        ['/api/account/language', 'POST', JSON.stringify({ language: 'km' })],
      ]),
    );
  });
});
