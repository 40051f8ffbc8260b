import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from './config';
import { Agent, createTestApp, type TestApp } from './test-support/test-app';

/**
 * TRUST_PROXY (issue #15): X-Forwarded-For is believed only from the configured proxies. What the server
 * takes as the client's address is seen through the per-address ceiling on codes (one per hour here).
 */
const opened: TestApp[] = [];
afterAll(async () => {
  await Promise.all(opened.map((t) => t.close()));
});

async function appTrusting(trustProxy: Config['trustProxy']) {
  const t = await createTestApp({
    config: { trustProxy, codeLimits: { perIpPerHour: 1, globalPerHour: 1000 } },
  });
  opened.push(t);
  const send = (peer: string, forwardedFor?: string) =>
    new Agent(t.app, peer).post(
      '/api/auth/signup/code',
      { phone: t.nextPhone() },
      forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {},
    );
  return send;
}

describe('TRUST_PROXY', () => {
  it('ignores X-Forwarded-For from a peer that is not a configured proxy', async () => {
    const send = await appTrusting(['10.0.0.1', '192.168.10.0/24']);
    expect((await send('10.9.9.9', '203.0.113.1')).status).toBe(200);
    // A new forwarded address changes nothing: the untrusted peer itself is the client.
    expect((await send('10.9.9.9', '203.0.113.2')).status).toBe(429);
    expect((await send('10.9.9.9')).status).toBe(429);
  });

  it('believes X-Forwarded-For from a configured proxy (address or range)', async () => {
    const send = await appTrusting(['10.0.0.1', '192.168.10.0/24']);
    expect((await send('10.0.0.1', '203.0.113.1')).status).toBe(200);
    expect((await send('10.0.0.1', '203.0.113.1')).status).toBe(429);
    expect((await send('10.0.0.1', '203.0.113.2')).status).toBe(200);
    expect((await send('192.168.10.7', '203.0.113.3')).status).toBe(200);
    // A client's own forged entry before the proxy's is not believed: the proxy appended the real one.
    expect((await send('10.0.0.1', '198.51.100.9, 203.0.113.3')).status).toBe(429);
  });

  it('without TRUST_PROXY, believes no X-Forwarded-For at all', async () => {
    const send = await appTrusting(false);
    expect((await send('10.0.0.1', '203.0.113.1')).status).toBe(200);
    expect((await send('10.0.0.1', '203.0.113.2')).status).toBe(429);
  });
});
