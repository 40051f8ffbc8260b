import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-support/test-app';

/** The built web app as `npm start` serves it (dist/web): what is on disk now, not what was there at start. */
describe('the built web app', () => {
  let t: TestApp | undefined;
  let webRoot: string | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    if (webRoot) rmSync(webRoot, { recursive: true, force: true });
  });

  const build = (root: string, name: string, html: string) => {
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'assets', `${name}.js`), `console.log(${JSON.stringify(name)});\n`);
    writeFileSync(join(root, 'index.html'), html);
  };

  it('serves a rebuild written after the app started: new hashed assets (immutable) and the new index.html', async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'hiram-web-'));
    build(webRoot, 'index-OLD111', '<p>old build</p>');
    t = await createTestApp({ webRoot });
    expect((await t.api.get('/assets/index-OLD111.js')).status).toBe(200);

    build(webRoot, 'index-NEW222', '<p>new build</p>');
    const asset = await t.api.get('/assets/index-NEW222.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toContain('index-NEW222');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    for (const path of ['/index.html', '/', '/loan/application', '/admin/users?page=2']) {
      const page = await t.api.get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain('new build');
      expect(page.headers['cache-control'], path).toBe('no-cache');
    }
  });

  it('serves the app once it is built, when the folder was empty at start', async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'hiram-web-'));
    t = await createTestApp({ webRoot });
    expect((await t.api.get('/loan')).body.error.code).toBe('NOT_FOUND');
    build(webRoot, 'index-LATE333', '<p>late build</p>');
    expect((await t.api.get('/loan')).text).toContain('late build');
    expect((await t.api.get('/assets/index-LATE333.js')).status).toBe(200);
  });

  it('keeps the API and missing files as JSON 404s, never the app page', async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'hiram-web-'));
    build(webRoot, 'index-A', '<p>app</p>');
    t = await createTestApp({ webRoot });
    for (const path of ['/api/nothing-here', '/assets/missing-123.js', '/favicon.png']) {
      const response = await t.api.get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.error.code, path).toBe('NOT_FOUND');
    }
    expect((await t.api.get('/../../etc/passwd')).text).not.toContain('root:');
    // A folder is no file: the app page (the SPA fallback), as before.
    expect((await t.api.get('/assets')).text).toContain('<p>app</p>');
    expect((await t.api.get('/assets/')).text).toContain('<p>app</p>');
    expect((await t.api.get('/api/health')).body.status).toBe('ok');
  });

  it("lets the page's own inline scripts run, by their hashes, and no other inline script; a rebuild brings its own", async () => {
    const page = (script: string) =>
      `<!doctype html><script>${script}</script><script type="module" src="/assets/x.js"></script><p>app</p>`;
    const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    const scriptSources = (policy: string | undefined) =>
      /(?:^|;)script-src ([^;]*)/.exec(policy ?? '')?.[1]?.split(' ') ?? [];
    webRoot = mkdtempSync(join(tmpdir(), 'hiram-web-'));
    build(webRoot, 'index-A', page('boot(1)'));
    t = await createTestApp({ webRoot });
    for (const path of ['/', '/index.html', '/login', '/loan/application']) {
      const response = await t.api.get(path);
      expect(scriptSources(response.headers['content-security-policy']), path).toEqual([
        "'self'",
        hash('boot(1)'),
      ]);
    }
    // The page compressed carries the same policy (worked out from the page itself); a pre-compressed copy
    // beside it is not what is sent, since each language is its own page.
    const long = `${page('boot(1)')}${'<!-- padding -->'.repeat(100)}`;
    writeFileSync(join(webRoot, 'index.html'), long);
    writeFileSync(join(webRoot, 'index.html.br'), brotliCompressSync('<p>stale copy</p>'));
    const compressed = await t.agent().get('/login', { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toContain('<p>app</p>');
    expect(scriptSources(compressed.headers['content-security-policy'])).toEqual(["'self'", hash('boot(1)')]);
    rmSync(join(webRoot, 'index.html.br'));

    // A rebuild with another boot script: its hash replaces the old one, without a restart.
    writeFileSync(join(webRoot, 'index.html'), page('boot(22)'));
    const rebuilt = await t.api.get('/login');
    expect(scriptSources(rebuilt.headers['content-security-policy'])).toEqual(["'self'", hash('boot(22)')]);
    // Everything else keeps the policy without hashes.
    for (const path of ['/api/health', '/assets/index-A.js']) {
      const response = await t.api.get(path);
      expect(scriptSources(response.headers['content-security-policy']), path).toEqual(["'self'"]);
    }
  });

  it("writes the page's language, description and no-script line in the language the browser asks for (issue #36)", async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'hiram-web-'));
    // As index.html is built (vite.config.ts adds the boot script).
    build(
      webRoot,
      'index-L',
      [
        '<!doctype html>',
        '<html lang="en" data-mantine-color-scheme="light">',
        '<head><meta name="description" content="Hiram: honest online loans" /><script>boot()</script></head>',
        '<body><noscript>Hiram needs JavaScript to run.</noscript><div id="root"></div></body></html>',
      ].join(''),
    );
    t = await createTestApp({ webRoot });
    const cases: [string | undefined, string, string, string][] = [
      ['km-KH,km;q=0.9,en;q=0.8', 'km', 'Hiram៖ កម្ចីអនឡាញដោយស្មោះត្រង់', 'Hiram ត្រូវការ JavaScript ដើម្បីដំណើរការ។'],
      ['zh-CN,zh;q=0.9', 'zh', 'Hiram：诚实透明的网上贷款', 'Hiram 需要启用 JavaScript 才能运行。'],
      ['tl-PH', 'fil', 'Hiram: tapat na online na pautang', 'Kailangan ng Hiram ang JavaScript para gumana.'],
      // By preference, not by order; a language the app does not speak is passed over.
      ['de-DE, en;q=0.5, fil;q=0.8', 'fil', 'Hiram: tapat na online na pautang', 'Kailangan ng Hiram'],
      ['fr-FR', 'en', 'Hiram: honest online loans', 'Hiram needs JavaScript to run.'],
      [undefined, 'en', 'Hiram: honest online loans', 'Hiram needs JavaScript to run.'],
    ];
    for (const [accept, lang, description, noscript] of cases) {
      for (const path of ['/', '/index.html', '/loan/application']) {
        const headers: Record<string, string> = accept ? { 'accept-language': accept } : {};
        const response = await t.agent().get(path, { headers });
        const where = `${path} ${accept}`;
        expect(response.status, where).toBe(200);
        expect(response.headers['content-type'], where).toContain('text/html');
        expect(String(response.headers.vary), where).toMatch(/accept-language/i);
        expect(response.headers['content-language'], where).toBe(lang);
        expect(response.text, where).toContain(`<html lang="${lang}" data-mantine-color-scheme="light">`);
        expect(response.text, where).toContain(`<meta name="description" content="${description}" />`);
        expect(response.text, where).toContain(`<noscript>${noscript}`);
        expect(response.text, where).toContain('<script>boot()</script>');
      }
    }
  });
});
