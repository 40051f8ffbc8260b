import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, startAppProcess, waitUntilReady } from './test-support/app-process';

const started: ChildProcess[] = [];

/** `node --import tsx src/server/main.ts` as `npm start` runs it (jobs on), one process so signals reach it. */
async function startServer(env: Record<string, string>, port?: number): Promise<AppProcess> {
  const server = await startAppProcess('the server', { JOBS_ENABLED: 'true', ...env }, { port });
  started.push(server.child);
  return server;
}

/** Health, not readiness: the process tests look at the process, not the database. */
const waitForHealth = (server: AppProcess) => waitUntilReady(server, { path: '/api/health' });

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out`)), ms)),
  ]);
}

const passwordLines = (text: string) => text.match(/^\s*password: (\S+)$/gm) ?? [];

/** A browser-like session over fetch: the cookies it was given and its CSRF token. */
class Session {
  cookies = new Map<string, string>();
  csrf = '';
  constructor(private readonly port: number) {}

  async send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.csrf && method !== 'GET') headers['x-csrf-token'] = this.csrf;
    const response = await fetch(`http://127.0.0.1:${this.port}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!, value.join('='));
    }
    return response;
  }
}

/** Signs the first-start admin in and sets the password it must change, so back-office routes open. */
async function adminSession(server: AppProcess, password: string): Promise<Session> {
  const session = new Session(server.port);
  const login = await session.send('POST', '/api/auth/login', { identifier: 'admin', password });
  expect(login.status).toBe(200);
  session.csrf = (await login.json()).csrfToken;
  const newPassword = 'a-new-admin-password-1';
  const changed = await session.send('POST', '/api/auth/password', {
    currentPassword: password,
    newPassword,
    confirmPassword: newPassword,
  });
  expect(changed.status).toBe(200);
  session.csrf = (await changed.json()).csrfToken ?? session.csrf;
  return session;
}

/** Opens a TCP connection, or says why not (e.g. ECONNREFUSED). */
function tryConnect(port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Everything the server writes on a socket until it closes it. */
function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.once('close', () => resolve(text));
  });
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// One process test is enough; it says nothing about the database backend, so it runs with the PGlite suite.
describe.skipIf(process.env.TEST_DB !== 'pglite')(
  'the server process (npm start)',
  { timeout: 120_000 },
  () => {
    let dataDir: string;
    let adminPassword: string;
    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'hiram-main-'));
    });
    afterAll(() => {
      for (const child of started)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('first start: serves the API, prints the admin password once; a second process on the same data dir is refused; SIGTERM stops cleanly', async () => {
      const server = await startServer({ DATA_DIR: dataDir });
      await waitForHealth(server);
      const health = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', db: 'pglite' });

      const lines = passwordLines(server.stdout());
      expect(lines, server.stdout()).toHaveLength(1);
      adminPassword = /password: (\S+)/.exec(lines[0]!)![1]!;
      expect(adminPassword).toMatch(/^[A-Za-z2-9]{14}$/);
      expect(server.stdout()).toContain('This password is shown only once');
      expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(true);

      // A second process on the same data dir must not open PGlite's files.
      const second = await startServer({ DATA_DIR: dataDir });
      const secondCode = await withTimeout(second.exit, 60_000, 'second process');
      expect(secondCode).not.toBe(0);
      expect(second.stderr()).toMatch(/data directory .* is in use by another Hiram process \(pid \d+\)/);
      expect(passwordLines(second.stdout())).toEqual([]);
      // ...and the first one is unharmed.
      expect((await fetch(`http://127.0.0.1:${server.port}/api/health`)).status).toBe(200);

      server.child.kill('SIGTERM');
      expect(await withTimeout(server.exit, 30_000, 'shutdown')).toBe(0);
      expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(false);
    });

    it('second start on the same data dir prints no password, and the printed one still logs in', async () => {
      expect(adminPassword).toBeDefined();
      const server = await startServer({ DATA_DIR: dataDir });
      try {
        await waitForHealth(server);
        expect(passwordLines(server.stdout())).toEqual([]);
        const login = await fetch(`http://127.0.0.1:${server.port}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ identifier: 'admin', password: adminPassword }),
        });
        expect(login.status).toBe(200);
        expect((await login.json()).user).toMatchObject({
          username: 'admin',
          role: 'admin',
          mustChangePassword: true,
        });
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await withTimeout(server.exit, 30_000, 'shutdown')).toBe(0);
      expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(false);
    });

    it('graceful shutdown: SIGTERM stops accepting, ends the event streams, finishes the request in flight, exits 0', async () => {
      expect(adminPassword).toBeDefined();
      const server = await startServer({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: '30' });
      await waitForHealth(server);
      expect((await fetch(`http://127.0.0.1:${server.port}/api/health/ready`)).status).toBe(200);
      const admin = await adminSession(server, adminPassword);

      // A live event stream, as the back office keeps open.
      const events = await admin.send('GET', '/api/staff/events');
      expect(events.status).toBe(200);
      const reader = events.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry:');
      let streamEnded = false;
      const drained = (async () => {
        while (!(await reader.read()).done) {}
        streamEnded = true;
      })().catch(() => {
        streamEnded = true;
      });

      // A slow request: the headers and half the body are in, the rest comes after the SIGTERM.
      const body = JSON.stringify({ identifier: 'admin', password: 'not-the-password' });
      const slow = connect(server.port, '127.0.0.1');
      await new Promise((resolve) => slow.once('connect', resolve));
      const answer = readUntilClosed(slow);
      slow.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));

      server.child.kill('SIGTERM');
      await waitFor('the event stream to end', () => streamEnded);
      await drained;
      // New connections are refused while the slow request is still being served.
      await waitFor(
        'new connections to be refused',
        async () => (await tryConnect(server.port)) !== 'connected',
      );
      expect(await tryConnect(server.port)).toBe('ECONNREFUSED');
      expect(server.child.exitCode).toBeNull();

      slow.write(body.slice(10));
      const response = await withTimeout(answer, 10_000, 'the slow request');
      expect(response).toMatch(/^HTTP\/1\.1 401 /);
      expect(response).toContain('"code":"INVALID_CREDENTIALS"');

      expect(await withTimeout(server.exit, 30_000, 'shutdown')).toBe(0);
      expect(await tryConnect(server.port)).toBe('ECONNREFUSED');
      expect(existsSync(join(dataDir, 'hiram.lock'))).toBe(false);
    });

    it('graceful shutdown is bounded: a request still running at SHUTDOWN_TIMEOUT_SECONDS loses its connection, exit 1', async () => {
      const server = await startServer({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_SECONDS: '1' });
      await waitForHealth(server);
      const stuck = connect(server.port, '127.0.0.1');
      await new Promise((resolve) => stuck.once('connect', resolve));
      const closed = readUntilClosed(stuck);
      stuck.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      expect(await withTimeout(server.exit, 15_000, 'forced shutdown')).toBe(1);
      expect(Date.now() - signalledAt).toBeLessThan(8_000);
      await withTimeout(closed, 5_000, 'the stuck connection to close');
      expect(server.stdout() + server.stderr()).toContain('shutdown deadline');
    });

    it('bad configuration exits non-zero with a message naming the variable', async () => {
      const server = await startServer({ DATA_DIR: dataDir, PORT: 'abc' }, 0);
      const code = await withTimeout(server.exit, 60_000, 'bad config');
      expect(code).not.toBe(0);
      expect(server.stderr()).toMatch(/Invalid configuration:\n\s+PORT /);
      expect(server.stderr()).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
    });
  },
);
