import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ATTENDED_FOR_MS, UNATTENDED_HEADER } from '../../domain/session-activity';
import { ApiError, apiFetch, setCsrfToken } from './api';

function stubFetch(response: Response | Error) {
  const fetchMock = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('apiFetch', () => {
  afterEach(() => setCsrfToken(null));

  it('sends JSON with the CSRF token on writes, same-origin credentials', async () => {
    setCsrfToken('token-1');
    const fetchMock = stubFetch(json({ ok: true }));
    await expect(apiFetch('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: true });
    const [path, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/x');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ 'content-type': 'application/json', 'x-csrf-token': 'token-1' });
  });

  it('marks a request nobody asked for as unattended, and one after the reader acts as theirs', async () => {
    const start = performance.now();
    const clock = vi.spyOn(performance, 'now').mockReturnValue(start);
    try {
      const fetchMock = stubFetch(json({}));
      window.dispatchEvent(new Event('keydown'));
      await apiFetch('/api/me');
      clock.mockReturnValue(start + ATTENDED_FOR_MS + 1);
      await apiFetch('/api/staff/dashboard');
      window.dispatchEvent(new Event('pointerdown'));
      await apiFetch('/api/staff/dashboard');
      const sent = fetchMock.mock.calls.map((call) => (call as unknown as [string, RequestInit])[1].headers);
      expect(sent[0]).not.toHaveProperty(UNATTENDED_HEADER);
      expect(sent[1]).toHaveProperty(UNATTENDED_HEADER, '1');
      expect(sent[2]).not.toHaveProperty(UNATTENDED_HEADER);
    } finally {
      clock.mockRestore();
    }
  });

  it('does not send the CSRF token on reads', async () => {
    setCsrfToken('token-1');
    const fetchMock = stubFetch(json({}));
    await apiFetch('/api/me');
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.method).toBe('GET');
    expect(init.headers).not.toHaveProperty('x-csrf-token');
  });

  it('throws an ApiError built from the error body', async () => {
    stubFetch(
      json(
        {
          error: {
            code: 'TOO_MANY_ATTEMPTS',
            message: 'Too many attempts. Try again in 15 minutes.',
            fields: { phone: { code: 'PHONE_TAKEN', message: 'Phone number already registered' } },
            params: { n: 15 },
          },
        },
        429,
      ),
    );
    const error = await apiFetch('/api/auth/login', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      status: 429,
      message: 'Too many attempts. Try again in 15 minutes.',
      params: { n: 15 },
      fields: { phone: { code: 'PHONE_TAKEN', message: 'Phone number already registered' } },
    });
  });

  it('reports an unreachable server as NETWORK and a non-JSON error page as BAD_RESPONSE', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    await expect(apiFetch('/api/me')).rejects.toMatchObject({
      code: 'NETWORK',
      status: 0,
      isTransport: true,
    });
    stubFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(apiFetch('/api/me')).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      status: 502,
      isTransport: true,
    });
  });
});

describe("answers index.html's boot script asked for early", () => {
  const early = (answers: Record<string, Promise<Response>>) => {
    (globalThis as { __hiramEarlyAnswers?: unknown }).__hiramEarlyAnswers = answers;
  };
  // As on a page that has just loaded: this worker may have run other files for longer than the 10 s.
  beforeEach(() => {
    vi.spyOn(performance, 'now').mockReturnValue(1_000);
  });
  afterEach(() => {
    delete (globalThis as { __hiramEarlyAnswers?: unknown }).__hiramEarlyAnswers;
    vi.restoreAllMocks();
  });

  it('serve the first GET of their path, once; later GETs and other paths ask the server', async () => {
    early({ '/api/me': Promise.resolve(json({ user: null, early: true })) });
    const fetchMock = stubFetch(json({ user: null, early: false }));
    await expect(apiFetch('/api/me')).resolves.toEqual({ user: null, early: true });
    expect(fetchMock).not.toHaveBeenCalled();
    await expect(apiFetch('/api/me')).resolves.toEqual({ user: null, early: false });
    await apiFetch('/api/settings');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('are never used for a write, and go through the same error handling', async () => {
    early({
      '/api/x': Promise.resolve(json({ early: true })),
      '/api/me': Promise.reject(new TypeError('offline')),
    });
    const fetchMock = stubFetch(json({ early: false }));
    await expect(apiFetch('/api/x', { method: 'POST', body: {} })).resolves.toEqual({ early: false });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(apiFetch('/api/me')).rejects.toMatchObject({ code: 'NETWORK' });
  });

  it('are not used once stale (long after the page loaded)', async () => {
    vi.spyOn(performance, 'now').mockReturnValue(60_000);
    early({ '/api/me': Promise.resolve(json({ early: true })) });
    stubFetch(json({ early: false }));
    await expect(apiFetch('/api/me')).resolves.toEqual({ early: false });
  });
});
