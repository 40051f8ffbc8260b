import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootScript } from './boot-script';

/**
 * index.html's inline boot script, as built, run against a stand-in page: it starts in the language the app
 * will pick (src/web/lib/reader-language.ts, the rule it bundles) and fetches that language's strings.
 */
let code: string;
beforeAll(async () => {
  code = await bootScript({
    strings: { en: '/assets/en.js', fil: '/assets/fil.js', zh: '/assets/zh.js', km: '/assets/km.js' },
    walletStrings: {
      en: '/assets/en.wallet.js',
      fil: '/assets/fil.wallet.js',
      zh: '/assets/zh.wallet.js',
      km: '/assets/km.wallet.js',
    },
    pages: {
      '/login': { scripts: ['/assets/login.js'], styles: [], pictures: [] },
      '/wallet': { scripts: ['/assets/wallet.js'], styles: [], pictures: [], walletStrings: true },
    },
  });
});

/** Runs the script on `pathname` with `saved` in storage and `preferred` as the browser's languages. */
function boot(saved: string | null, preferred: string[], pathname = '/login') {
  const attributes = new Map<string, string>();
  const links: { rel: string; href: string }[] = [];
  const page = {
    document: {
      documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) },
      createElement: () => ({}),
      head: { appendChild: (link: { rel: string; href: string }) => links.push(link) },
    },
    localStorage: { getItem: (key: string) => (key === 'hiram.lang' ? saved : null) },
    navigator: { languages: preferred, language: preferred[0] ?? '' },
    location: { pathname },
    matchMedia: () => ({ matches: false }),
    fetch: () => new Promise(() => {}),
  };
  runInNewContext(code, { ...page, window: page });
  return {
    lang: attributes.get('lang') ?? null,
    strings: links
      .filter((link) => link.rel === 'modulepreload' && !/login|\/wallet\.js/.test(link.href))
      .map((l) => l.href),
  };
}

describe('the boot script', () => {
  it('starts in the language saved on this device, over the browser’s', () => {
    expect(boot('km', ['tl-PH'])).toEqual({ lang: 'km', strings: ['/assets/km.js'] });
  });

  it('on a first visit fetches the browser’s language by the app’s rule, leaving <html lang> to the app', () => {
    expect(boot(null, ['tl-PH', 'en'])).toEqual({ lang: null, strings: ['/assets/fil.js'] });
    expect(boot(null, ['de-DE', 'zh-TW'])).toEqual({ lang: null, strings: ['/assets/zh.js'] });
    expect(boot('xx', ['fr'])).toEqual({ lang: null, strings: ['/assets/en.js'] });
  });

  it("also fetches the wallet's strings on a page that waits for them, in the same language", () => {
    expect(boot('km', [], '/wallet')).toEqual({
      lang: 'km',
      strings: ['/assets/km.js', '/assets/km.wallet.js'],
    });
    expect(boot(null, ['zh-CN'], '/login').strings).toEqual(['/assets/zh.js']);
  });
});
