import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type AppProcess, startAppProcess, waitUntilReady } from '../../src/server/test-support/app-process';
import { freePort } from '../../src/server/test-support/free-port';

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

const adminPrinted = /username: (\S+)\s+password: (\S+)/;

/**
 * The server with the e2e settings (jobs as `npm start` runs them, a short wait between codes), started
 * from the run's own build (e2e/support/build-server.ts).
 */
function spawnServer(dataDir: string, port: number, env: Record<string, string>) {
  return startAppProcess(
    'the e2e server',
    {
      DATA_DIR: dataDir,
      JOBS_ENABLED: process.env.JOBS_ENABLED ?? 'true',
      CODE_RESEND_SECONDS: String(E2E_RESEND_SECONDS),
      ...env,
    },
    { port, inheritEnv: true, built: inject('e2eServer') },
  );
}

// Generous: on a loaded machine (several test runs at once) the first start can take over a minute.
const startTimeoutMs = 150_000;

/**
 * Starts the real server exactly as `npm start` would (built server and web app, embedded database in a
 * fresh temp dir, a free port), reads the first-start administrator from its output, and stops and
 * removes it all on `stop`.
 */
export async function startServer(): Promise<RunningServer> {
  if (!existsSync('dist/web/index.html')) throw new Error('Build the web app first: npx vite build');
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let server: AppProcess = await spawnServer(dataDir, port, {});

  const stop = async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (current?.baseUrl === baseUrl) current = undefined;
  };
  const restart = async (env: Record<string, string>) => {
    await server.stop();
    server = await spawnServer(dataDir, port, env);
    try {
      await waitUntilReady(server, { timeoutMs: startTimeoutMs });
    } catch (error) {
      await stop();
      throw error;
    }
  };

  try {
    await waitUntilReady(server, { timeoutMs: startTimeoutMs, printed: adminPrinted });
    const [, username, password] = adminPrinted.exec(server.output())!;
    current = { baseUrl, admin: { username: username!, password: password! }, restart, stop };
    return current;
  } catch (error) {
    await stop();
    throw error;
  }
}
