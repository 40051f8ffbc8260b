import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import i18n from '../../../lib/i18n';
import { renderWithProviders } from '../../../test/render';
import { bannerIntervalMs, LoanBanner } from './loan-banner';

function renderBanner() {
  renderWithProviders(<LoanBanner />);
}

const current = () =>
  screen
    .getAllByRole('button', { name: /^Show picture/ })
    .findIndex((dot) => dot.getAttribute('aria-current') === 'true');

function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('loan banner', () => {
  it('rotates its 3 pictures every 6 s and stops while the tab is hidden', async () => {
    vi.useFakeTimers();
    renderBanner();
    expect(screen.getAllByRole('button', { name: /^Show picture/ })).toHaveLength(3);
    expect(screen.getByText('Apply from your phone')).toBeTruthy();
    expect(current()).toBe(0);

    await act(async () => vi.advanceTimersByTime(bannerIntervalMs - 100));
    expect(current()).toBe(0);
    await act(async () => vi.advanceTimersByTime(100));
    expect(current()).toBe(1);
    expect(screen.getByText('Every cost before you sign')).toBeTruthy();

    await act(async () => setHidden(true));
    await act(async () => vi.advanceTimersByTime(bannerIntervalMs * 3));
    expect(current()).toBe(1);

    await act(async () => setHidden(false));
    await act(async () => vi.advanceTimersByTime(bannerIntervalMs));
    expect(current()).toBe(2);
    await act(async () => vi.advanceTimersByTime(bannerIntervalMs));
    expect(current()).toBe(0);
  });

  it('is announced as a carousel in the reader’s language', async () => {
    await i18n.changeLanguage('zh');
    try {
      renderBanner();
      const region = screen.getByRole('region', { name: '关于 Hiram 贷款' });
      expect(region.getAttribute('aria-roledescription')).toBe('图片轮播');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('can be paused, and a chosen picture stays', async () => {
    vi.useFakeTimers();
    renderBanner();
    await act(async () => screen.getByRole('button', { name: 'Pause the pictures' }).click());
    await act(async () => screen.getByRole('button', { name: 'Show picture 3 of 3' }).click());
    await act(async () => vi.advanceTimersByTime(bannerIntervalMs * 2));
    expect(current()).toBe(2);
    expect(screen.getByText('Money to your own account')).toBeTruthy();
  });

  it('does not start moving by itself for people who prefer reduced motion', async () => {
    vi.useFakeTimers();
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...original(query),
      matches: query.includes('prefers-reduced-motion: reduce'),
    })) as typeof window.matchMedia;
    try {
      renderBanner();
      await act(async () => vi.advanceTimersByTime(bannerIntervalMs * 2));
      expect(current()).toBe(0);
      expect(screen.getByRole('button', { name: 'Play the pictures' })).toBeTruthy();
    } finally {
      window.matchMedia = original;
    }
  });
});
