/**
 * The servers the bench measures: the app (one process, started by the shared starter) and a bare Fastify +
 * pg server answering the staff profile's single-row SELECT, the reference the profile is judged against.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { hmac } from '../src/server/auth/crypto';
import { startAppProcess, waitUntilReady } from '../src/server/test-support/app-process';
import { freePort } from '../src/server/test-support/free-port';
import { BENCH_STAFF_PASSWORD, SECRET } from './common';

let built = false;

export async function startServer(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<number> }> {
  // The built server, as `npm start` runs it (bundled packages, compile cache), built first where missing
  // or older than its sources; the sources through tsx would measure a server no lender runs.
  if (!built) {
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: 'inherit',
    });
  }
  built = true;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startAppProcess(
    'the server',
    {
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      SESSION_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      DEV_OUTBOX: 'false',
      // Every bench client calls from 127.0.0.1: the per-address ceilings (issue #15) would measure the
      // limiter, not the list or the withdrawal. The per-account ones still hold.
      RATE_LIMIT_LOGIN_PER_IP_PER_HOUR: '10000000',
      RATE_LIMIT_WITHDRAWALS_PER_IP_PER_HOUR: '10000000',
      // The withdrawal races send hundreds of requests for one borrower: the race is what they measure.
      RATE_LIMIT_WITHDRAWALS_PER_ACCOUNT_PER_HOUR: '10000000',
      RATE_LIMIT_UPLOADS_PER_IP_PER_HOUR: '10000000',
      LOGIN_FAILURES_PER_IP: '100000',
      // The bench's admin and officer sign in with a password: with the default (admin and finance must use
      // a second factor, issue #15) every admin request would be refused until they enrol, and the lists
      // would measure that refusal.
      STAFF_2FA_REQUIRED_ROLES: 'none',
      // The seed has ~50,000 loans past due: the reminder job would send them their reminders during the
      // measurements (and hold up the server's exit after them). The bench measures requests.
      JOBS_ENABLED: 'false',
      ...env,
    },
    { port, production: true, built: true, inheritEnv: true, echo: true },
  );
  await waitUntilReady(server, { path: '/api/health', timeoutMs: 180_000, pollMs: 250 });
  const { child } = server;
  const stop = async () => {
    // Peak resident memory of the server process, in MiB.
    let peak = 0;
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {}
    await server.stop();
    return peak;
  };
  return { url, child, stop };
}

export async function login(url: string, identifier: string, password: string) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  const body = (await response.json()) as { csrfToken: string };
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, csrf: body.csrfToken };
}

/** The seeded admin, officer and finance user signed in, as the mixed workload acts (bench/mixed.ts). */
export async function staffSessions(url: string) {
  const session = (user: string) => login(url, user, BENCH_STAFF_PASSWORD);
  return {
    admin: await session('benchadmin'),
    officer: await session('benchofficer'),
    finance: await session('benchfinance'),
  };
}

/** A session row for a seeded borrower, so 10,000 borrowers need no 10,000 password checks. */
export function sessionFor(userId: string) {
  const token = randomUUID() + randomUUID();
  return {
    token,
    row: {
      id_hash: hmac(SECRET, token),
      user_id: userId,
      csrf_token: token.slice(0, 32),
      expires_at: sql<Date>`now() + interval '1 day'`,
    },
  };
}

/**
 * The yardstick for a single-record GET: a bare Fastify + pg server (same pool size, no session, no
 * headers, no schema) answering the same single-row SELECT of an application by id. It runs as its own
 * process, like the app: this file with `--bare-server=<database url>`.
 */
export async function startBareServer(databaseUrl: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/run.ts', `--bare-server=${databaseUrl}`, `--bare-port=${port}`],
    { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error('bare server exited');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return 0;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return 0;
    },
  };
}

export async function runBareServer(databaseUrl: string, port: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  pool.on('error', () => {});
  const app = Fastify();
  app.get('/health', async () => ({ ok: true }));
  app.get<{ Params: { id: string } }>('/applications/:id', async (request, reply) => {
    const { rows } = await pool.query('select * from applications where id = $1', [request.params.id]);
    if (!rows[0]) return reply.code(404).send({ error: 'not found' });
    return rows[0];
  });
  await app.listen({ host: '127.0.0.1', port });
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
}
