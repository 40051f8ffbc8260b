/**
 * Cold start of the built app (issue #12: ≤ 2 s to healthy): `node dist/server/main.js` on PGlite, timed from
 * spawn to the first 200 of /api/health/ready — on an empty DATA_DIR (the migrated template is copied in)
 * and again on the same DATA_DIR (a warm start). Prints the median and best of a few runs, the process's
 * CPU seconds until ready, and the machine's load average (a loaded machine stretches the wall time).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppProcess, waitUntilReady } from '../src/server/test-support/app-process';

const GOAL_SECONDS = 2;
const SESSION_SECRET = 'hiram-bench-cold-start-secret-0123456789-abcdefgh';

/** Starts the built server and resolves when /api/health/ready answers 200: wall and CPU seconds. */
async function timeStart(dataDir: string): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const server = await startAppProcess(
    'the built server',
    { HOST: '127.0.0.1', DATA_DIR: dataDir, SESSION_SECRET, LOG_LEVEL: 'warn' },
    { production: true, built: true },
  );
  try {
    await waitUntilReady(server, { timeoutMs: 120_000, pollMs: 20 });
    const wall = (performance.now() - started) / 1000;
    // utime + stime (fields 14 and 15 of /proc/<pid>/stat), in clock ticks of 1/100 s.
    const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
    return { wall, cpu };
  } finally {
    await server.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchColdStart(log: (message: string) => void, runs = 3) {
  log('\n=== cold start of the built app (PGlite), goal ≤ 2 s to healthy');
  // Builds what is missing or stale (web app and server), as `npm start` does; not part of the timing.
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
  const first: { wall: number; cpu: number }[] = [];
  const warm: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'hiram-cold-'));
    try {
      first.push(await timeStart(dataDir));
      warm.push(await timeStart(dataDir));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  log(
    `   load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} on this machine while measuring`,
  );
  log('| start | median s | best s | CPU s (median) | goal | |');
  log('|---|---:|---:|---:|---:|---|');
  for (const [label, rows] of [
    ['first start, empty DATA_DIR', first],
    ['warm start, same DATA_DIR', warm],
  ] as const) {
    const wall = median(rows.map((r) => r.wall));
    const best = Math.min(...rows.map((r) => r.wall));
    log(
      `| ${label} | ${wall.toFixed(2)} | ${best.toFixed(2)} | ${median(rows.map((r) => r.cpu)).toFixed(2)} | ≤ ${GOAL_SECONDS} | ${wall <= GOAL_SECONDS ? 'pass' : 'FAIL'} |`,
    );
  }
}
