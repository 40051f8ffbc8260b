/**
 * Start-up of the built app on PGlite (issue #35): `npm start` to the first 200 of /api/health/ready on an
 * empty DATA_DIR (goal ≤ 1.5 s, median of 5) and again on the same DATA_DIR (a warm start, goal ≤ 1 s),
 * as a lender runs it: production mode, scheduled jobs on, every other setting at its default. Beside each
 * figure, references measured in the same rounds (interleaved, so a busy moment stretches them alike):
 * `node --version` (a bare process start) and a bare Fastify server answering the same URL (`node -e`).
 * The server alone (`node dist/server/main.js`, without npm and the build check) is shown too. The CPU
 * seconds are those of the whole process tree until ready (background compiler and GC threads included),
 * and the load average is printed before and after: on a loaded machine the wall times stretch, the CPU
 * seconds much less. `npx tsx bench/cold-start.ts [--runs=N]`, or `npm run bench -- --only=cold-start`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../src/server/test-support/free-port';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GOALS = { cold: 1.5, warm: 1 } as const;
const SESSION_SECRET = 'hiram-bench-cold-start-secret-0123456789-abcdefgh';
const READY = '/api/health/ready';
const TICKS_PER_SECOND = 100; // USER_HZ: /proc's CPU times are in these

/** The reference server: Fastify answering the readiness URL, nothing else. */
const BARE_FASTIFY = `import('fastify').then(async ({ default: Fastify }) => {
  const app = Fastify();
  app.get('${READY}', async () => ({ status: 'ready' }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
});`;

export interface Timing {
  /** Seconds from spawn to the first 200 (or, for `node --version`, to its exit). */
  wall: number;
  /** CPU seconds of the process tree until then. */
  cpu: number;
  /** What it printed until then. */
  output: string;
}

/** utime + stime of every process in the group `pgid`, and of the children they have waited for. */
function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** Ends the whole process group (npm, its shell and the server) and waits for the leader to exit. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Spawns `command` in a process group of its own and times it until GET /api/health/ready answers 200. */
async function timeToReady(command: string, args: string[], env: Record<string, string>): Promise<Timing> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    // PATH and HOME only: no DATABASE_URL or other setting of this shell leaks into the lender's defaults.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited early:\n${output}`);
      const ready = await fetch(`http://127.0.0.1:${port}${READY}`).then(
        (response) => response.ok,
        () => false, // not listening yet
      );
      if (ready)
        return { wall: (performance.now() - started) / 1000, cpu: groupCpuSeconds(child.pid!), output };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`${command} ${args.join(' ')} was not ready within 120 s:\n${output}`);
  } finally {
    await stopGroup(child);
  }
}

/** `node --version`: spawn to exit. */
async function timeNodeVersion(): Promise<Timing> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--version'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return { wall: (performance.now() - started) / 1000, cpu: 0, output: '' };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

export interface ColdStartFigures {
  /** Median seconds of `npm start` to ready on an empty DATA_DIR, and on the same DATA_DIR again. */
  cold: number;
  warm: number;
  coldPass: boolean;
  warmPass: boolean;
  /** Median seconds of the bare Fastify server measured in the same rounds. */
  reference: number;
  /** The 1-minute load average when the measurement ended. */
  loadAverage: number;
}

export async function benchColdStart(log: (message: string) => void, runs = 5): Promise<ColdStartFigures> {
  log(
    `\n=== start-up of the built app (PGlite): \`npm start\` to ready, median of ${runs}; goals ≤ ${GOALS.cold} s on an empty DATA_DIR, ≤ ${GOALS.warm} s warm`,
  );
  // Builds what is missing or stale (web app and server), as `npm start` does; not part of the timing.
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' });
  // As a lender runs it; SESSION_SECRET because production refuses to start without one.
  const serverEnv = (dataDir: string) => ({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SESSION_SECRET,
    LOG_LEVEL: 'warn',
  });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const rows = {
    npmCold: [] as Timing[],
    npmWarm: [] as Timing[],
    nodeCold: [] as Timing[],
    nodeWarm: [] as Timing[],
    fastify: [] as Timing[],
    nodeVersion: [] as Timing[],
  };
  const loadBefore = loadText();
  for (let i = 0; i < runs; i++) {
    rows.nodeVersion.push(await timeNodeVersion());
    rows.fastify.push(await timeToReady(process.execPath, ['-e', BARE_FASTIFY], {}));
    for (const [cold, warm, command, args] of [
      [rows.npmCold, rows.npmWarm, npm, ['start', '--silent']],
      [rows.nodeCold, rows.nodeWarm, process.execPath, ['dist/server/main.js']],
    ] as const) {
      for (let attempt = 1; ; attempt++) {
        const dataDir = mkdtempSync(join(tmpdir(), 'hiram-cold-'));
        try {
          const first = await timeToReady(command, [...args], serverEnv(dataDir));
          const again = await timeToReady(command, [...args], serverEnv(dataDir));
          // Sources edited meanwhile make `npm start` rebuild: a build is not a start; measure again, and
          // leave the round out if it keeps happening (the table says how many rounds count).
          if (/rebuilding|Building the/.test(first.output + again.output)) {
            log(
              `   (the sources changed during a run and \`npm start\` rebuilt them: ${attempt < 3 ? 'measured again' : 'round left out'})`,
            );
            if (attempt < 3) continue;
            break;
          }
          if (!/password: \S+/.test(first.output) || /password: \S+/.test(again.output)) {
            throw new Error(
              `the first start must print the administrator's password, once:\n${first.output}`,
            );
          }
          cold.push(first);
          warm.push(again);
          break;
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
  }
  const reference = median(rows.fastify.map((r) => r.wall));
  log(`   load average (1 / 5 / 15 min) ${loadBefore} before, ${loadText()} after; 2 CPUs shared`);
  log('| start | runs | median s | best s | worst s | CPU s (median) | × bare Fastify | goal | verdict |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  const line = (label: string, timings: Timing[], goal?: number) => {
    if (timings.length === 0) {
      log(`| ${label} | 0 | – | – | – | – | – | ${goal === undefined ? '–' : `≤ ${goal}`} | not measured |`);
      return Number.NaN;
    }
    const walls = timings.map((t) => t.wall);
    const wall = median(walls);
    const cpu = timings.some((t) => t.cpu > 0) ? median(timings.map((t) => t.cpu)).toFixed(2) : '–';
    log(
      `| ${label} | ${timings.length} | ${wall.toFixed(2)} | ${Math.min(...walls).toFixed(2)} | ${Math.max(...walls).toFixed(2)} | ${cpu} | ${(wall / reference).toFixed(1)} | ${goal === undefined ? '–' : `≤ ${goal}`} | ${goal === undefined ? 'reference' : wall <= goal ? 'pass' : 'FAIL'} |`,
    );
    return wall;
  };
  const cold = line('`npm start`, empty DATA_DIR (first start)', rows.npmCold, GOALS.cold);
  const warm = line('`npm start`, same DATA_DIR (warm)', rows.npmWarm, GOALS.warm);
  line('server alone (`node dist/server/main.js`), empty DATA_DIR', rows.nodeCold);
  line('server alone, same DATA_DIR', rows.nodeWarm);
  line('reference: bare Fastify answering the same URL (`node -e`)', rows.fastify);
  line('reference: `node --version` (process start and exit)', rows.nodeVersion);
  return {
    cold,
    warm,
    coldPass: cold <= GOALS.cold,
    warmPass: warm <= GOALS.warm,
    reference,
    loadAverage: loadavg()[0]!,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? '5');
  benchColdStart((message) => console.info(message), runs).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
