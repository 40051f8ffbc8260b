import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyAppStyles } from './app-styles';

function preloadedSheet(href: string): HTMLLinkElement {
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'style';
  link.href = href;
  link.dataset.appStyles = '';
  document.head.append(link);
  return link;
}

describe('applyAppStyles', () => {
  afterEach(() => {
    document.head.replaceChildren();
    vi.useRealTimers();
  });

  it('applies each preloaded sheet and resolves only once all have loaded or failed', async () => {
    const main = preloadedSheet('/assets/main-A.css');
    const other = preloadedSheet('/assets/other-B.css');
    const untouched = document.createElement('link');
    untouched.rel = 'preload';
    untouched.as = 'image';
    document.head.append(untouched);
    let done = false;
    const applied = applyAppStyles().then(() => {
      done = true;
    });
    expect([main.rel, other.rel, untouched.rel]).toEqual(['stylesheet', 'stylesheet', 'preload']);
    main.dispatchEvent(new Event('load'));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(false);
    other.dispatchEvent(new Event('error'));
    await applied;
    expect(done).toBe(true);
  });

  it('resolves at once with nothing to apply (development, where Vite injects the styles)', async () => {
    await expect(applyAppStyles()).resolves.toBeUndefined();
  });

  it('gives up waiting after a while rather than never drawing the app', async () => {
    vi.useFakeTimers();
    preloadedSheet('/assets/main-A.css');
    let done = false;
    void applyAppStyles().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(9_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(true);
  });
});
