import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/server/test-support/free-port';
import { testProcessEnv } from '../../src/server/test-support/process-env';

/**
 * The e2e run's wait before another code may be sent (the server allows it only with NODE_ENV=test), so
 * a flow that asks for two codes waits seconds, not the SPEC's 60 s. Long enough to see the countdown.
 */
export const E2E_RESEND_SECONDS = 5;

export interface RunningServer {
  baseUrl: string;
  /** The first-start administrator, as the server printed it (the password is one-time). */
  admin: { username: string; password: string };
  /**
   * Stops the server and starts it again on the same data and port with these extra environment
   * variables (e.g. TEST_CLOCK_START weeks later, a late charge): what a lender's restart would do.
   */
  restart: (env: Record<string, string>) => Promise<void>;
  stop: () => Promise<void>;
}

let current: RunningServer | undefined;

/** The server of the test file that is running (each file starts its own; see app-per-file.ts). */
export function runningServer(): RunningServer {
  if (!current) throw new Error('No e2e server is running: e2e/support/app-per-file.ts starts one per file.');
  return current;
}

interface Process {
  child: ChildProcess;
  output: () => string;
}

function spawnServer(dataDir: string, port: number, env: Record<string, string>): Process {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      ...testProcessEnv,
      DATA_DIR: dataDir,
      PORT: String(port),
      CODE_RESEND_SECONDS: String(E2E_RESEND_SECONDS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

async function kill({ child }: Process) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until the server answers; on a first start, also until it printed the first-start admin. */
async function waitReady(server: Process, baseUrl: string, needAdmin: boolean) {
  // Generous: on a loaded machine (several test runs at once) the first start can take over a minute.
  const deadline = Date.now() + 150_000;
  let admin: RunningServer['admin'] | undefined;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`The server exited early:\n${server.output()}`);
    const printed = /username: (\S+)\s+password: (\S+)/.exec(server.output());
    if (printed) admin ??= { username: printed[1]!, password: printed[2]! };
    const healthy = await fetch(`${baseUrl}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy && (admin || !needAdmin)) return admin;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not start in time:\n${server.output()}`);
}

/**
 * Starts the real server exactly as `npm start` would (built web app, embedded database in a fresh temp
 * dir, a free port), reads the first-start administrator from its output, and stops and removes it all
 * on `stop`.
 */
export async function startServer(): Promise<RunningServer> {
  if (!existsSync('dist/web/index.html')) throw new Error('Build the web app first: npx vite build');
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let server = spawnServer(dataDir, port, {});

  const stop = async () => {
    await kill(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (current?.baseUrl === baseUrl) current = undefined;
  };
  const restart = async (env: Record<string, string>) => {
    await kill(server);
    server = spawnServer(dataDir, port, env);
    try {
      await waitReady(server, baseUrl, false);
    } catch (error) {
      await stop();
      throw error;
    }
  };

  try {
    const admin = await waitReady(server, baseUrl, true);
    current = { baseUrl, admin: admin!, restart, stop };
    return current;
  } catch (error) {
    await stop();
    throw error;
  }
}
