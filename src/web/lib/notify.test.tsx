import { describe, expect, it } from 'vitest';
import { loadToastsOnFirstInput, toastsWanted } from './notify';

describe('the toasts chunk', () => {
  it('is asked for at the first input, not while the page loads (issue #35)', async () => {
    const cancel = loadToastsOnFirstInput();
    window.dispatchEvent(new Event('load'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toastsWanted()).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    expect(toastsWanted()).toBe(true);
    cancel();
  });
});
