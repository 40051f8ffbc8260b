import { describe, expect, it, vi } from 'vitest';

describe('the toasts chunk', () => {
  it('is asked for at the first input, not while the page loads (issue #35)', async () => {
    // A fresh module: another test file in this worker may already have raised a toast (isolate: false).
    vi.resetModules();
    const { loadToastsOnFirstInput, toastsWanted } = await import('./notify');
    const cancel = loadToastsOnFirstInput();
    window.dispatchEvent(new Event('load'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toastsWanted()).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    expect(toastsWanted()).toBe(true);
    cancel();
  });
});
