import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './test-support/free-port';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Running {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

const started: ChildProcess[] = [];

/** `node --import tsx src/server/main.ts` (what `npm start` runs via tsx), as one process so signals reach it. */
function startServer(env: Record<string, string>, port: number): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, stdout: () => out, stderr: () => err, exit };
}

async function waitForHealth(server: Running, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exit.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited early:\n${server.stdout()}\n${server.stderr()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`server did not become healthy:\n${server.stdout()}\n${server.stderr()}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} timed out`)), ms)),
  ]);
}

const passwordLines = (text: string) => text.match(/^\s*password: (\S+)$/gm) ?? [];

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
      const server = startServer({ DATA_DIR: dataDir }, await freePort());
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
      const second = startServer({ DATA_DIR: dataDir }, await freePort());
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
      const server = startServer({ DATA_DIR: dataDir }, await freePort());
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

    it('bad configuration exits non-zero with a message naming the variable', async () => {
      const server = startServer({ DATA_DIR: dataDir, PORT: 'abc' }, 0);
      const code = await withTimeout(server.exit, 60_000, 'bad config');
      expect(code).not.toBe(0);
      expect(server.stderr()).toMatch(/Invalid configuration:\n\s+PORT /);
      expect(server.stderr()).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
    });
  },
);
