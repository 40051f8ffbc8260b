import { inject } from 'vitest';
import { baseUrl } from './browser';

/** The admin password after 01-auth.e2e.ts (or this helper) replaced the one-time password. */
export const E2E_ADMIN_PASSWORD = 'a brand new admin pass';

/** A tiny API client with a cookie jar and the CSRF token, for setting up state from a test. */
export class ApiSession {
  private cookie = '';
  private csrf: string | null = null;

  async request<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    const text = await response.text();
    const parsed = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    if (parsed && typeof parsed === 'object' && 'csrfToken' in parsed) this.csrf = parsed.csrfToken;
    return { status: response.status, body: parsed as T };
  }

  async login(identifier: string, password: string) {
    const response = await this.request('POST', '/api/auth/login', { identifier, password });
    if (response.status !== 200)
      throw new Error(`login ${identifier} failed: ${JSON.stringify(response.body)}`);
    return response.body.user as { mustChangePassword: boolean };
  }
}

/** Signs in as the admin, replacing the one-time password first if nobody has yet. */
export async function adminSession(): Promise<ApiSession> {
  const session = new ApiSession();
  const first = await session.request('POST', '/api/auth/login', {
    identifier: 'admin',
    password: inject('adminPassword'),
  });
  if (first.status === 200) {
    await session.request('POST', '/api/auth/password', {
      currentPassword: inject('adminPassword'),
      newPassword: E2E_ADMIN_PASSWORD,
      confirmPassword: E2E_ADMIN_PASSWORD,
    });
    return session;
  }
  await session.login('admin', E2E_ADMIN_PASSWORD);
  return session;
}

let counter = 0;

/**
 * A new staff member ready to use: created by the admin (temporary password), then signed in once to set
 * their own password. Returns the username and the password to type in the browser.
 */
export async function createStaff(role: 'officer' | 'finance' | 'admin', phone?: string) {
  const admin = await adminSession();
  counter += 1;
  const username = `${role}${Date.now().toString(36)}${counter}`;
  const temporary = 'temporary pass 1';
  const password = 'staff member pass 1';
  const created = await admin.request('POST', '/api/admin/users', {
    username,
    password: temporary,
    phone: phone ?? `08${String(Date.now()).slice(-8)}${counter % 10}`,
    role,
  });
  if (created.status !== 201) throw new Error(`creating ${role} failed: ${JSON.stringify(created.body)}`);
  const session = new ApiSession();
  await session.login(username, temporary);
  await session.request('POST', '/api/auth/password', {
    currentPassword: temporary,
    newPassword: password,
    confirmPassword: password,
  });
  return { username, password, id: created.body.id as string };
}
