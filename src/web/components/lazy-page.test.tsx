import { describe, expect, it } from 'vitest';
import { lazyPageWithPreload } from './lazy-page';

const Page = () => null;

describe('lazyPageWithPreload', () => {
  it("waits for the page's own strings as well as its chunk", async () => {
    let stringsIn: () => void = () => {};
    const strings = new Promise<void>((resolve) => {
      stringsIn = resolve;
    });
    const { preload } = lazyPageWithPreload(async () => Page, { strings: () => strings });
    let ready = false;
    const loading = preload().then(() => {
      ready = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ready).toBe(false);
    stringsIn();
    await loading;
    expect(ready).toBe(true);
  });

  it('asks for the strings again when they failed', async () => {
    let calls = 0;
    const { preload } = lazyPageWithPreload(async () => Page, {
      strings: async () => {
        calls += 1;
        if (calls === 1) throw new Error('offline');
      },
    });
    await expect(preload()).rejects.toThrow('offline');
    await expect(preload()).resolves.toBe(Page);
    expect(calls).toBe(2);
  });
});
