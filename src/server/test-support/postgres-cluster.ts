import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const BIN_DIR = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

interface RunResult {
  code: number | null;
  output: string;
}

export interface ThrowawayPostgres {
  /** Superuser URL (database `postgres`). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a throw-away PostgreSQL 15 cluster in a new temp dir on a free port (tuned for tests: no fsync).
 * PostgreSQL refuses to run as root: then everything runs as the `postgres` system user. A detached
 * watchdog stops the cluster and removes its files if this process dies without calling stop().
 */
export async function startThrowawayPostgres(extraSettings: string[] = []): Promise<ThrowawayPostgres> {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(BIN_DIR, tool))) {
      throw new Error(
        `PostgreSQL 15 binaries not found (${join(BIN_DIR, tool)} is missing). Tests and benchmarks start ` +
          'their own throw-away cluster: install the server with `apt-get install postgresql` (Debian/Ubuntu, ' +
          'version 15), set PG_BIN_DIR to another bin directory, or set TEST_POSTGRES_URL to an existing server.',
      );
    }
  }

  // PostgreSQL refuses to run as root: then everything runs as the `postgres` system user.
  const asRoot = process.getuid?.() === 0;
  const base = mkdtempSync(join(tmpdir(), 'hiram-pg-'));
  const dataDir = join(base, 'data');
  const logFile = join(base, 'postgres.log');
  let watchdog: ChildProcess | undefined;

  const command = (tool: string, args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(BIN_DIR, tool), ...args]]
      : [join(BIN_DIR, tool), args];

  const stopSync = () => {
    try {
      const [cmd, args] = command('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate', '-w']);
      if (existsSync(join(dataDir, 'postmaster.pid')))
        execFileSync(cmd, args, { cwd: base, stdio: 'ignore' });
    } catch {
      // Already stopped, or never started.
    }
    rmSync(base, { recursive: true, force: true });
    watchdog?.kill();
  };

  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(base, uid, gid);
    }

    const init = await run(
      ...command('initdb', [
        '-D',
        dataDir,
        '-A',
        'trust',
        '-U',
        'postgres',
        '--no-sync',
        '-E',
        'UTF8',
        '--locale=C',
      ]),
      base,
    );
    if (init.code !== 0) throw new Error(`initdb failed (exit ${init.code}):\n${init.output}`);

    // The port can be taken between choosing and binding it: try a few.
    let port = 0;
    let lastFailure = '';
    for (let attempt = 0; attempt < 3 && !port; attempt++) {
      const candidate = await freePort();
      const options = [
        `-p ${candidate}`,
        `-k "${base}"`,
        '-c listen_addresses=127.0.0.1',
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c max_connections=300',
        ...extraSettings.map((setting) => `-c ${setting}`),
      ].join(' ');
      const start = await run(
        ...command('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', options, 'start']),
        base,
      );
      if (start.code === 0) port = candidate;
      else lastFailure = `${start.output}\n${existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''}`;
    }
    if (!port) throw new Error(`PostgreSQL did not start:\n${lastFailure}`);

    // If this process dies without running the teardown, a detached watchdog still stops the cluster.
    const [stopCmd, stopArgs] = command('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate']);
    const quoted = [stopCmd, ...stopArgs].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    watchdog = spawn(
      'sh',
      [
        '-c',
        `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; ${quoted} >/dev/null 2>&1; rm -rf '${base}'`,
      ],
      { detached: true, stdio: 'ignore' },
    );
    watchdog.unref();
    process.once('exit', stopSync);

    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      stop: async () => {
        process.off('exit', stopSync);
        const [cmd, args] = command('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate', '-w']);
        await run(cmd, args, base);
        stopSync();
      },
    };
  } catch (error) {
    stopSync();
    throw error;
  }
}

/** Runs a command to completion, collecting its output; resolves on exit (a started server keeps no pipe). */
function run(cmd: string, args: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}
