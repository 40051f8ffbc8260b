import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { defaultRepaymentRules } from '../src/domain/loan/repayments';
import { defaultPaymentChannels } from '../src/domain/schemas/settings';

export const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
export const options = {
  pgRows: Number(arg('pg-rows', '1000000')),
  pgliteRows: Number(arg('pglite-rows', '100000')),
  duration: Number(arg('duration', '10')),
  connections: Number(arg('connections', '32')),
  only: arg('only', ''),
  scenarios: new Set(arg('scenarios', 'lists,profile,mixed,races,two-instances').split(',')),
  /** Seconds of each mixed staff workload run (bench/mixed.ts): two runs, cache on and off. */
  mixedDuration: Number(arg('mixed-duration', '30')),
  /** STAFF_ANSWER_CACHE_MS for the server (docs/decisions/030): the app's default unless given; 0 reads every answer. */
  answerCacheMs: arg('answer-cache-ms', ''),
  /**
   * Seconds each read scenario runs unrecorded before its measured seconds: a fresh server's first requests
   * compile code and fill each database connection's caches (the first search scenario of a run read 2–4 ms
   * slower at p95 than the same one measured later); a lender's server has long been warm.
   */
  warmUp: Number(arg('warm-up', '1')),
};
/** How the lists were served, for every table that judges them. */
export const answerCacheNote = () =>
  options.answerCacheMs === '0'
    ? 'every answer read from the database (--answer-cache-ms=0)'
    : `back-office answers reused for up to ${options.answerCacheMs || 'the default 2,000'} ms until a change empties them (docs/decisions/030; --answer-cache-ms=0 reads every one)`;
export const SECRET = 'hiram-bench-session-secret-0123456789-abcdefghijklmn';
/** The password of the staff the bench seeds (`seedBenchStaff`) and signs in as. */
export const BENCH_STAFF_PASSWORD = 'bench officer pass';
export const log = (message: string) => console.info(message);

export interface Row {
  scenario: string;
  /** Every answer was the expected one: a fast refusal is not a fast list. */
  allOk: boolean;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  ok: string;
  /** The machine's 1-minute load average when the measurement ended (os.loadavg): how busy the 2 cores were. */
  loadAverage?: number;
}

/**
 * Every goal of issue #35 a scenario judged in this run, for the summary at the end of `npm run bench`:
 * goals a run skipped are listed there as not measured, never with a figure.
 */
export interface GoalLine {
  goal: string;
  figure: string;
  pass: boolean;
}
export const goalLines: GoalLine[] = [];
export function recordGoal(goal: string, figure: string, pass: boolean) {
  goalLines.push({ goal, figure, pass });
  log(`GOAL ${goal}: ${figure} → ${verdict(pass)}`);
}

export const geometricMean = (xs: number[]) =>
  Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / Math.max(1, xs.length));

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs autocannon, recording every response time so p95 is exact (autocannon reports p90/p97.5). */
export async function load(
  name: string,
  baseUrl: string,
  opts: Partial<autocannon.Options> & { path?: string; expect?: (status: number) => boolean },
): Promise<Row> {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let good = 0;
  let total = 0;
  const { path, expect, ...rest } = opts;
  const expectOk = expect ?? ((s: number) => s >= 200 && s < 300);
  // Reads only: a write scenario's requests change what the measured ones find.
  if (options.warmUp > 0 && !rest.amount && (rest.method ?? 'GET') === 'GET') {
    await new Promise<void>((resolve, reject) => {
      autocannon(
        {
          url: `${baseUrl}${path ?? ''}`,
          connections: options.connections,
          ...rest,
          duration: options.warmUp,
        } as autocannon.Options,
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}${path ?? ''}`,
        connections: options.connections,
        ...(rest.amount ? {} : { duration: options.duration }),
        ...rest,
      } as autocannon.Options,
      (error) => (error ? reject(error) : resolve()),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      times.push(time);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      total += 1;
      if (expectOk(status)) good += 1;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  log(
    `   ${name}: ${(total / seconds).toFixed(0)} req/s, p95 ${percentile(times, 95).toFixed(1)} ms; load ${loadavg()[0]!.toFixed(2)}`,
  );
  return {
    scenario: name,
    allOk: total > 0 && good === total,
    rps: total / seconds,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    ok: `${good}/${total}${good < total ? ` (${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')})` : ''}`,
    loadAverage: loadavg()[0]!,
  };
}

export function printTable(title: string, rows: Row[]) {
  // The first /api/health row (a scenario's name may carry the load average after it).
  const health = rows.find((r) => r.scenario.startsWith('GET /api/health'))?.rps ?? 1;
  log(`\n${title}`);
  log('| scenario | req/s | × health | p50 ms | p95 ms | p99 ms | expected answers | load avg |');
  log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    log(
      `| ${r.scenario} | ${r.rps.toFixed(0)} | ${(r.rps / health).toFixed(3)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.ok} | ${r.loadAverage?.toFixed(2) ?? '–'} |`,
    );
  }
}

/** The configuration the loan-book use cases read (the server's defaults). */
export const benchConfig = (timeZone: string) => ({
  timeZone,
  repaymentRules: defaultRepaymentRules,
  paymentChannels: [...defaultPaymentChannels],
});

export const verdict = (ok: boolean) => (ok ? 'pass' : 'FAIL');

/**
 * 200 requests sent at once (`send(i)`), each timed from its start to the end of its answer. Connections
 * are opened first by a burst to /api/health, so a race measures the server, not 200 TCP handshakes; the
 * same burst to /api/health, timed, is the client's own floor on this machine (`raceFloor`).
 */
export async function burst(url: string, send: (i: number) => Promise<Response>, count = 200) {
  await timedBurst(() => fetch(`${url}/api/health`), count);
  return timedBurst(send, count);
}

export async function timedBurst(send: (i: number) => Promise<Response>, count: number) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const t0 = performance.now();
      const response = await send(i);
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - t0 };
    }),
  );
  return {
    answers: answers.map((a) => a.status),
    times: answers.map((a) => a.ms).sort((a, b) => a - b),
    seconds: (performance.now() - started) / 1000,
  };
}
