import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
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
    // The same page sent pre-compressed carries the same policy (worked out from the page itself).
    writeFileSync(join(webRoot, 'index.html.br'), brotliCompressSync(page('boot(1)')));
    const compressed = await t.agent().get('/login', { headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
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
});
