import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Agent, createTestApp, type TestApp } from './test-support/test-app';

/** Issue #12: every text answer compressed; the built assets sent pre-compressed; the event stream left alone. */
describe('HTTP compression', () => {
  let t: TestApp;
  let admin: Agent;
  let webRoot: string;
  const script = `console.log(${JSON.stringify('hiram '.repeat(400))});\n`;

  beforeAll(async () => {
    webRoot = mkdtempSync(join(tmpdir(), 'hiram-web-'));
    mkdirSync(join(webRoot, 'assets'));
    const asset = join(webRoot, 'assets', 'index-ABC123.js');
    writeFileSync(asset, script);
    writeFileSync(`${asset}.br`, brotliCompressSync(script));
    writeFileSync(`${asset}.gz`, gzipSync(script));
    writeFileSync(join(webRoot, 'index.html'), `<!doctype html><p>app</p>${'<!-- padding -->'.repeat(100)}`);
    t = await createTestApp({ webRoot });
    admin = await t.signInStaff('admin');
    for (let i = 0; i < 8; i++) {
      const created = await admin.post('/api/admin/users', {
        username: `officer${i}`,
        password: 'first pass 1',
        phone: t.nextPhone(),
        role: 'officer',
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends a hashed asset pre-compressed (brotli, else gzip), cached for a year', async () => {
    const br = await t.agent().get('/assets/index-ABC123.js', { headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);

    const gz = await t.agent().get('/assets/index-ABC123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await t.agent().get('/assets/index-ABC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(script);
  });

  it('compresses the app page (no-cache) and a JSON list; a small answer goes as it is', async () => {
    const page = await t.agent().get('/login', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<p>app</p>');

    // Injected directly: the test agent would parse the (compressed) JSON body.
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const list = await t.app.inject({
      url: '/api/admin/users',
      headers: { cookie, 'accept-encoding': 'br' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const users = JSON.parse(brotliDecompressSync(list.rawPayload).toString());
    expect(users.items.length).toBeGreaterThanOrEqual(9);

    const health = await t.agent().get('/api/health', { headers: { 'accept-encoding': 'br' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.body.status).toBe('ok');
  });

  it('streams the audit CSV compressed', async () => {
    const csv = await admin.get('/api/admin/audit.csv', { headers: { 'accept-encoding': 'gzip' } });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-encoding']).toBe('gzip');
    const text = gunzipSync(csv.rawPayload).toString();
    expect(text.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(9);
  });

  it('never compresses the live event stream', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const { headers, firstChunk } = await new Promise<{
      headers: Record<string, unknown>;
      firstChunk: string;
    }>((resolve, reject) => {
      const req = httpRequest(
        `http://127.0.0.1:${address.port}/api/staff/events`,
        { headers: { cookie, 'accept-encoding': 'br, gzip' } },
        (response) => {
          response.once('data', (chunk: Buffer) => {
            resolve({ headers: response.headers, firstChunk: chunk.toString() });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(headers['content-type']).toContain('text/event-stream');
    expect(headers['content-encoding']).toBeUndefined();
    expect(firstChunk).toContain('retry: 5000');
  });
});
