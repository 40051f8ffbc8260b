import { baseUrl } from './browser';

export interface ApiResponse<T> {
  status: number;
  body: T;
}

/**
 * A small API client for setting up state from a test: a cookie jar, the CSRF token on every write, and
 * JSON or multipart bodies (a FormData body is sent as multipart).
 */
export class ApiSession {
  private cookie = '';
  private csrf: string | null = null;

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) {
      payload = body;
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${baseUrl()}${path}`, { method, headers, body: payload });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const parsed: unknown =
      text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (
      parsed &&
      typeof parsed === 'object' &&
      'csrfToken' in parsed &&
      typeof parsed.csrfToken === 'string'
    ) {
      this.csrf = parsed.csrfToken;
    }
    return { status: response.status, body: parsed as T };
  }

  async login(identifier: string, password: string): Promise<{ mustChangePassword: boolean }> {
    const response = await this.request<{ user: { mustChangePassword: boolean } }>(
      'POST',
      '/api/auth/login',
      {
        identifier,
        password,
      },
    );
    expectStatus(response, 200, `log in ${identifier}`);
    return response.body.user;
  }
}

/** Set-up steps fail loudly with what the server said, not later with a confusing assertion. */
export function expectStatus(response: ApiResponse<unknown>, status: number, what: string): void {
  if (response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
}
