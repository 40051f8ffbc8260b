import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from './config';
import { expectError } from './test-support/api-assertions';
import { Agent, createTestApp, type TestApp } from './test-support/test-app';

/** Safe defaults (issue #15): the development outbox, the API docs and the health answers. */
const opened: TestApp[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});
async function appWith(config: Partial<Config> = {}) {
  const t = await createTestApp({ config });
  opened.push(t);
  return t;
}

describe('development outbox', () => {
  it('is read only from this machine (127.0.0.1, ::1); any other caller gets "not found"', async () => {
    const t = await appWith();
    const phone = t.nextPhone();
    expect((await t.agent().post('/api/auth/signup/code', { phone })).status).toBe(200);
    const url = `/api/dev/outbox?phone=${phone}`;
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const local = await new Agent(t.app, ip).get(url);
      expect(local.status, ip).toBe(200);
      expect(local.body.messages).toHaveLength(1);
    }
    for (const ip of ['10.1.2.3', '192.168.1.20', '203.0.113.7', '2001:db8::1']) {
      const response = await new Agent(t.app, ip).get(url);
      expectError(response, 404, 'NOT_FOUND', 'Not found.');
      expect(response.text).not.toContain(phone);
    }
  });

  it('is not opened by a forged X-Forwarded-For, nor by a proxy on this machine forwarding a stranger', async () => {
    const t = await appWith({ trustProxy: 1 });
    const url = `/api/dev/outbox?phone=${t.nextPhone()}`;
    const forged = await new Agent(t.app, '10.1.2.3').get(url, {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expectError(forged, 404, 'NOT_FOUND', 'Not found.');
    const proxied = await new Agent(t.app, '127.0.0.1').get(url, {
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expectError(proxied, 404, 'NOT_FOUND', 'Not found.');
  });
});

describe('production', () => {
  it('serves /api/docs only when API_DOCS is on', async () => {
    const off = await appWith({ env: 'production', apiDocs: false, devOutbox: false });
    expect((await off.agent().get('/api/docs')).status).toBe(404);
    expect((await off.agent().get('/api/docs/json')).status).toBe(404);
    const on = await appWith({ env: 'production', apiDocs: true, devOutbox: false });
    expect((await on.agent().get('/api/docs/json')).status).toBe(200);
  });

  it('/api/health and /api/health/ready do not name the database', async () => {
    const t = await appWith({ env: 'production', apiDocs: false, devOutbox: false });
    const live = await t.agent().get('/api/health');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await t.agent().get('/api/health/ready');
    expect(ready.body).toEqual({ status: 'ready' });
    expect(`${live.text}${ready.text}`).not.toMatch(/pglite|postgres/i);
    // Outside production it still helps whoever runs it.
    const dev = await appWith();
    expect((await dev.agent().get('/api/health')).body).toEqual({ status: 'ok', db: dev.kind });
  });
});
