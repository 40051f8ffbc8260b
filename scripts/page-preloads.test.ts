// @vitest-environment jsdom
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootPreloads, type Manifest, pagesFromRoutes, preloadMap } from './page-preloads';

const root = join(import.meta.dirname, '..');
const featuresDir = join(root, 'src/web/features');
const routeFiles = readdirSync(featuresDir)
  .map((name) => join(featuresDir, name, 'routes.tsx'))
  .map((file) => {
    try {
      return { file, code: readFileSync(file, 'utf8') };
    } catch {
      return { file, code: '' };
    }
  });

describe('page preloads (written into boot.js at build time)', () => {
  it("pairs every preloadOn path of the app's routes with the page module it imports", () => {
    const pages = pagesFromRoutes(root, routeFiles);
    expect(Object.fromEntries(pages)).toMatchObject({
      '/login': 'src/web/features/auth/components/login-page.tsx',
      '/signup': 'src/web/features/auth/components/signup-page.tsx',
      '/loan': expect.stringMatching(/^src\/web\/features\/application\//),
      '/loan/application': expect.stringMatching(/^src\/web\/features\/application\//),
      '/wallet': expect.stringMatching(/^src\/web\/features\/wallet\//),
    });
    for (const module of pages.values()) expect(() => readFileSync(join(root, module))).not.toThrow();
  });

  it('fails the build on a preloadOn it cannot pair with its import', () => {
    const code = `export const r = [{ element: somethingElse(() => import('./x'), { preloadOn: ['/x'] }) }];`;
    expect(() =>
      pagesFromRoutes(root, [{ file: join(root, 'src/web/features/x/routes.tsx'), code }]),
    ).toThrow(/1 preloadOn not paired/);
  });

  it("lists a page's and a language's chunks without what index.html already loads", () => {
    const manifest: Manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_main.js'] },
      '_main.js': { file: 'assets/main.js', imports: ['_runtime.js'] },
      '_runtime.js': { file: 'assets/runtime.js' },
      '_form.js': { file: 'assets/form.js', imports: ['_main.js', '_alert.js'] },
      '_alert.js': { file: 'assets/alert.js' },
      'src/login.tsx': { file: 'assets/login.js', imports: ['_runtime.js', '_main.js', '_form.js'] },
      'src/locales/en.bundle.ts': { file: 'assets/en.js', imports: ['_main.js'] },
    };
    const map = preloadMap(manifest, new Map([['/login', 'src/login.tsx']]), {
      en: 'src/locales/en.bundle.ts',
    });
    expect(map).toEqual({
      byPath: { '/login': ['/assets/login.js', '/assets/form.js', '/assets/alert.js'] },
      byLanguage: { en: ['/assets/en.js'] },
    });
    expect(() => preloadMap(manifest, new Map([['/x', 'src/missing.tsx']]), {})).toThrow(/no chunk/);
  });

  it("adds a modulepreload link for this path's and this language's chunks (trailing slash aside)", () => {
    const map = {
      byPath: { '/login': ['/assets/login.js'] },
      byLanguage: { en: ['/assets/en.js'], km: ['/assets/km.js'] },
    };
    const run = (path: string, lang: string | null) => {
      document.head.innerHTML = '';
      if (lang) document.documentElement.setAttribute('lang', lang);
      else document.documentElement.removeAttribute('lang');
      window.history.replaceState(null, '', path);
      new Function(bootPreloads(map))();
      return [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) =>
        l.getAttribute('href'),
      );
    };
    expect(run('/login/', 'km')).toEqual(['/assets/login.js', '/assets/km.js']);
    expect(run('/wallet', null)).toEqual(['/assets/en.js']);
  });
});
