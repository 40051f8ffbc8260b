import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openPendingStream, until } from '../test-support/sse';
import { createTestApp, type TestApp } from '../test-support/test-app';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The value of one sample line, e.g. `hiram_event_stream_clients 1`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('is 404, not the web page, when neither METRICS_ALLOW nor METRICS_TOKEN is set', async () => {
    t = await createTestApp();
    const response = await t.api.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });

  it('answers allowed addresses and the token bearer, and 403 to anyone else', async () => {
    // The first agent (t.api) is 10.0.0.1, the next ones 10.0.0.2, 10.0.0.3…
    t = await createTestApp({
      config: { metrics: { allow: ['10.0.0.1/32', '192.0.2.0/24'], token: TOKEN } },
    });
    const allowed = await t.api.get('/metrics');
    expect(allowed.status).toBe(200);
    expect(allowed.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(allowed.text).toContain('# TYPE hiram_http_requests_total counter');
    expect(allowed.text).toContain('process_cpu_seconds_total');

    const stranger = t.agent();
    const refused = await stranger.get('/metrics');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await stranger.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(
      403,
    );
    expect((await stranger.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      200,
    );
  });

  it('counts requests and their latency per route pattern, never per raw URL', async () => {
    t = await createTestApp({ config: { metrics: { allow: ['10.0.0.1/32'], token: undefined } } });
    const staff = await t.signInStaff('officer');
    const id = '7c9e6679-7425-40de-944b-e07c799ca29b';
    for (let i = 0; i < 3; i++) expect((await staff.get(`/api/staff/applications/${id}`)).status).toBe(404);
    expect((await staff.get('/api/health')).status).toBe(200);
    expect((await staff.get('/api/scanner/probe-4711')).status).toBe(404);

    const text = (await t.api.get('/metrics')).text;
    expect(
      sample(
        text,
        'hiram_http_requests_total{method="GET",route="/api/staff/applications/:id",status_code="404"}',
      ),
    ).toBe(3);
    expect(
      sample(text, 'hiram_http_requests_total{method="GET",route="/api/health",status_code="200"}'),
    ).toBe(1);
    expect(sample(text, 'hiram_http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(
      1,
    );
    expect(
      sample(
        text,
        'hiram_http_request_duration_seconds_count{method="GET",route="/api/staff/applications/:id",status_code="404"}',
      ),
    ).toBe(3);
    expect(text).not.toContain(id);
    expect(text).not.toContain('probe-4711');
  });

  it('shows the open event streams, and the PostgreSQL pool when there is one', async () => {
    t = await createTestApp({ config: { metrics: { allow: ['10.0.0.1/32'], token: undefined } } });
    const staff = await t.signInStaff('officer');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const streams = async () => sample((await t!.api.get('/metrics')).text, 'hiram_event_stream_clients');

    expect(await streams()).toBe(0);
    const first = await openPendingStream(baseUrl, staff);
    const second = await openPendingStream(baseUrl, staff);
    await until(() => first.counts.length > 0 && second.counts.length > 0);
    expect(await streams()).toBe(2);
    // A signed-out caller's refused stream is no stream.
    const refused = await openPendingStream(baseUrl, t.agent());
    expect(refused.response.statusCode).toBe(401);
    expect(await streams()).toBe(2);
    first.close();
    let open = 2;
    for (let waited = 0; waited < 5000 && open !== 1; waited += 50) {
      open = (await streams()) ?? -1;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(open).toBe(1);
    second.close();

    const text = (await t.api.get('/metrics')).text;
    if (t.kind === 'postgres') {
      expect(sample(text, 'hiram_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'hiram_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'hiram_db_pool_connections{state="waiting"}')).toBe(0);
    } else {
      expect(text).not.toContain('hiram_db_pool_connections');
    }
  });
});
