import { afterEach, describe, expect, it } from 'vitest';
import type { Notifier, SmsMessage } from '../notify/notifier';
import { createTestApp, type TestApp, type TestAppOptions, testConsent } from '../test-support/test-app';
import { loggerOptions } from './logging';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An SMS gateway stand-in: the test learns each code without any log line carrying it. */
class CapturingNotifier implements Notifier {
  readonly sent: SmsMessage[] = [];
  async send(message: SmsMessage) {
    this.sent.push(message);
  }
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A test app logging at trace level (everything) into `lines`, as JSON, the way main.ts configures it. */
async function loggedApp(options: TestAppOptions = {}) {
  const lines: string[] = [];
  t = await createTestApp({
    ...options,
    logger: loggerOptions('trace', { write: (line) => lines.push(line) }),
  });
  return { app: t, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** `needle` as a whole token in `text` (a 6-digit code must not match inside a timestamp). */
const containsToken = (text: string, needle: string) =>
  new RegExp(`(?<![\\w-])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);

describe('structured logs', () => {
  it('log sign-up, login and a wrong password as JSON lines with request ids, and no password, code, cookie or CSRF token', async () => {
    const notifier = new CapturingNotifier();
    const { app, lines, entries } = await loggedApp({ notifier });
    const phone = app.nextPhone();
    const password = 'Sturdy-passw0rd-for-logs';
    const browser = app.agent();

    expect((await browser.post('/api/auth/signup/code', { phone })).status).toBe(200);
    const code = /\b(\d{6})\b/.exec(notifier.sent[0]?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const signedUp = await browser.post('/api/auth/signup', {
      phone,
      password,
      confirmPassword: password,
      code,
      ...testConsent(app.deps),
    });
    expect(signedUp.status).toBe(201);
    const other = app.agent();
    expect((await other.post('/api/auth/login', { identifier: phone, password })).status).toBe(200);
    expect((await other.get('/api/me')).status).toBe(200);
    const wrong = 'Wrong-passw0rd-guessed';
    expect((await app.agent().post('/api/auth/login', { identifier: phone, password: wrong })).status).toBe(
      401,
    );

    // Sign-up does not sign in; the login gives the session cookie and its CSRF token.
    const session = [...other.cookies.values()];
    expect(session).toHaveLength(1);
    expect(other.csrfToken).toBeTruthy();
    const secrets = [password, wrong, code!, ...session, other.csrfToken!];
    const text = lines.join('');
    for (const secret of secrets) expect(containsToken(text, secret), `log contains ${secret}`).toBe(false);

    // One JSON object a line; every request's lines carry its id, a UUID, and each request has its own.
    const completed = entries().filter((e) => e.msg === 'request completed');
    expect(completed.length).toBe(5);
    for (const entry of completed) expect(entry.requestId).toMatch(UUID);
    expect(new Set(completed.map((e) => e.requestId)).size).toBe(5);
    const incoming = entries().filter((e) => e.msg === 'incoming request');
    expect(incoming.map((e) => e.requestId)).toEqual(completed.map((e) => e.requestId));
  });

  it('redact a body, cookies, CSRF token and passwords that code logs carelessly', async () => {
    const { app, lines } = await loggedApp({
      routes: (fastify) =>
        fastify.post('/api/test/careless', async (request) => {
          request.log.info({ body: request.body, headers: request.headers }, 'careless: the request');
          request.log.info({ user: { password: 'Hunter2-in-a-user' } }, 'careless: a user');
          return { ok: true };
        }),
    });
    const agent = app.agent();
    agent.cookies.set('hiram_session', 'cookie-value-that-must-not-leak');
    const response = await agent.request('POST', '/api/test/careless', {
      body: { password: 'Password-in-a-body', code: '493817' },
      headers: {
        'x-csrf-token': 'csrf-token-that-must-not-leak',
        authorization: 'Bearer bearer-must-not-leak',
      },
    });
    expect(response.status).toBe(200);
    const text = lines.join('');
    expect(text).toContain('careless: the request');
    for (const secret of [
      'Password-in-a-body',
      '493817',
      'cookie-value-that-must-not-leak',
      'csrf-token-that-must-not-leak',
      'bearer-must-not-leak',
      'Hunter2-in-a-user',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});

describe('request ids', () => {
  it('are generated, logged and echoed in X-Request-Id; a client-sent id is ignored without TRUST_PROXY', async () => {
    const { app, entries } = await loggedApp();
    const first = await app.api.get('/api/privacy/notice');
    const second = await app.api.get('/api/privacy/notice', {
      headers: { 'x-request-id': 'made-up-by-a-client' },
    });
    const ids = [first.headers['x-request-id'], second.headers['x-request-id']];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    const logged = entries()
      .filter((e) => e.msg === 'request completed')
      .map((e) => e.requestId);
    expect(logged).toEqual(ids);
  });

  it("take a trusted proxy's X-Request-Id when it looks like an id, and replace an odd one", async () => {
    const { app, entries } = await loggedApp({ config: { trustProxy: ['127.0.0.1'] } });
    const given = await app.api.get('/api/privacy/notice', { headers: { 'x-request-id': 'lb-7f3a.42:1' } });
    expect(given.headers['x-request-id']).toBe('lb-7f3a.42:1');
    const odd = await app.api.get('/api/privacy/notice', {
      headers: { 'x-request-id': 'has spaces {and} "quotes"' },
    });
    expect(odd.headers['x-request-id']).toMatch(UUID);
    const tooLong = await app.api.get('/api/privacy/notice', {
      headers: { 'x-request-id': 'a'.repeat(129) },
    });
    expect(tooLong.headers['x-request-id']).toMatch(UUID);
    // Errors answered by the app carry the id too, so a user's report can be found in the log.
    const missing = await app.api.get('/api/no-such-route', { headers: { 'x-request-id': 'trace-404' } });
    expect(missing.status).toBe(404);
    expect(missing.headers['x-request-id']).toBe('trace-404');
    expect(entries().some((e) => e.requestId === 'lb-7f3a.42:1' && e.msg === 'request completed')).toBe(true);
  });
});

describe('health probes and metrics scrapes', () => {
  it('log nothing when they pass, and one warning with the request when they fail', async () => {
    const { app, entries } = await loggedApp();
    for (let i = 0; i < 3; i++) {
      expect((await app.api.get('/api/health')).status).toBe(200);
      expect((await app.api.get('/api/health/ready?from=lb')).status).toBe(200);
    }
    expect(entries()).toEqual([]);
    // Neither METRICS_ALLOW nor METRICS_TOKEN: /metrics answers 404, which a scraper must hear about.
    expect((await app.api.get('/metrics')).status).toBe(404);
    const failed = entries();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 40, msg: 'probe failed', req: { url: '/metrics' } });
    expect((failed[0]!.res as { statusCode: number }).statusCode).toBe(404);
    // Everything else is logged as before.
    await app.api.get('/api/privacy/notice');
    expect(entries().map((e) => e.msg)).toEqual(['probe failed', 'incoming request', 'request completed']);
  });
});
