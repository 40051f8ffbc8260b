/**
 * The back office at work (issue #35): 32 clients over hundreds of different staff pages — every queue at
 * several pages (deep ones too), filters, name / phone / loan-number searches with varied terms, the
 * dashboard, loan pages, ledgers and borrower profiles — with writes among them at a steady rate: officers
 * approve or reject pending applications and put loans on hold and release them, finance records
 * repayments. Every request goes through the real API with a signed-in staff session, and every write
 * carries its session's CSRF token as the web does. Measured against GET /api/health at the same
 * concurrency in the same run, with the load average and the client's own CPU beside each figure.
 */
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { todayIn } from '../src/domain/date-text';
import { load, log, options, percentile, type Row } from './common';
import { deepPageOf, type ListSizes } from './plans';
import { seededIds } from './seed';

export interface StaffSession {
  cookie: string;
  csrf: string;
}

export interface MixedFigures {
  label: string;
  /** Every request of the run, reads and writes. */
  all: Row;
  writes: Row;
  health: Row;
  distinctUrls: number;
  /** Requests answered with anything but the expected status, plus socket errors and timeouts. */
  errors: number;
  errorDetail: string;
  writesPerSecond: number;
  /** The bench process's CPU while it ran the clients, as a share of one core. */
  clientCpu: number;
  loadAverage: number;
}

/** Pages of a list worth asking for: the first five, then deeper, up to page 2,000 where the list has it. */
const pagesOf = (rows: number) =>
  [1, 2, 3, 4, 5, 10, 25, 50, 100, 250, 500, 1000, deepPageOf(rows)].filter(
    (p, i, all) => p <= Math.max(1, Math.ceil(rows / 10)) && all.indexOf(p) === i,
  );

const nameTerms = [
  'maria',
  'santos',
  'jose reyes',
  'ana cruz',
  'juan bautista',
  'rosa',
  'pedro ocampo',
  'garcia',
  'luz mendoza',
  'carlos torres',
  'elena',
  'ramon flores',
  'grace villanueva',
  'dela cruz',
  'mark ramos',
  'joy castillo',
  'paolo aquino',
  'liza navarro',
  'noel gonzales',
  'cora lopez',
  'ben rivera',
  'ivy perez',
  'rey domingo',
  'mari',
  'reye',
];

/**
 * The distinct GET URLs of the workload: lists × pages, filters, searches, the dashboard, and the loan
 * pages of rows spread over the whole table. Row numbers come from `seededIds` (bench/seed.ts).
 */
export function mixedUrls(rows: number, sizes: ListSizes): string[] {
  const urls: string[] = [];
  const lists: [string, number][] = [
    ['/api/staff/applications/pending', sizes.pending],
    ['/api/staff/applications/approved', sizes.running],
    ['/api/staff/loans', sizes.running],
    ['/api/staff/disbursements', sizes.disbursements],
    ['/api/staff/repayments', sizes.repayments],
    ['/api/staff/overdue', sizes.overdue],
    ['/api/staff/unapplied-payments', sizes.unapplied],
    ['/api/admin/audit', sizes.audit],
    ['/api/admin/users', sizes.users],
  ];
  for (const [path, size] of lists) for (const page of pagesOf(size)) urls.push(`${path}?page=${page}`);
  urls.push('/api/staff/complaints', '/api/staff/complaints?status=all', '/api/staff/account-closures');
  for (const status of ['requested', 'paid', 'failed']) {
    for (const page of [1, 2, 5]) urls.push(`/api/staff/disbursements?status=${status}&page=${page}`);
  }
  for (const bucket of ['1-30', '31-60', '61-90', '90+']) {
    for (const page of [1, 2, 10]) {
      urls.push(`/api/staff/overdue?bucket=${encodeURIComponent(bucket)}&page=${page}`);
    }
  }
  for (const action of ['application.approve', 'application.reject']) {
    for (const page of [1, 2, 50]) urls.push(`/api/admin/audit?action=${action}&page=${page}`);
  }
  // Name searches on every list that has one, page 1 and sometimes page 2.
  const searchable = [
    '/api/staff/applications/pending',
    '/api/staff/applications/approved',
    '/api/staff/loans',
    '/api/staff/disbursements',
    '/api/staff/repayments',
    '/api/staff/overdue',
  ];
  for (const [i, term] of nameTerms.entries()) {
    for (const path of searchable) {
      urls.push(`${path}?name=${encodeURIComponent(term)}`);
      if (i % 5 === 0) urls.push(`${path}?name=${encodeURIComponent(term)}&page=2`);
    }
  }
  // Phone searches: a part of a seeded number (the 7 digits staff read out), and name + phone.
  for (let i = 0; i < 12; i++) {
    const g = 1 + ((i * 104_729) % rows);
    const digits = seededIds.phone(g).slice(-7);
    urls.push(`${searchable[i % searchable.length]}?phone=${digits}`);
    urls.push(`/api/admin/users?phone=${digits}`);
    if (i % 3 === 0) urls.push(`/api/staff/applications/pending?name=maria&phone=${digits.slice(0, 5)}`);
  }
  // Loan numbers as typed: whole, without dashes, or the last digits.
  for (let i = 0; i < 12; i++) {
    const g = 5 * ((1 + i * 7_919) % Math.floor(rows / 5)) + 3;
    const number = `HL-26-${String(g).padStart(6, '0')}`;
    urls.push(`/api/staff/overdue?q=${encodeURIComponent(i % 2 ? number : String(g))}`);
    urls.push(`/api/staff/repayments?q=${encodeURIComponent(i % 3 ? number.replaceAll('-', '') : number)}`);
  }
  urls.push('/api/staff/dashboard', '/api/staff/dashboard/portfolio');
  // Loan pages: profiles of every status, and the ledgers of paid-out loans.
  for (let i = 0; i < 100; i++) {
    urls.push(`/api/staff/applications/${seededIds.application(1 + ((i * 9_973) % rows))}`);
  }
  for (let i = 0; i < 50; i++) {
    const g = 5 * ((i * 6_007) % Math.floor(rows / 5)) + 3;
    urls.push(`/api/staff/loans/${seededIds.application(g)}/ledger`);
  }
  return [...new Set(urls)];
}

type WriteKind = 'decide' | 'hold' | 'release' | 'repay';

/**
 * The writes' targets, fresh rows for each run (`run`, 0–3, picks the slice), far from the rows the races use
 * (row numbers under ~50,000): pending applications (g % 5 < 2), approved loans never paid out
 * (g % 10 = 2), paid-out loans (g % 5 = 3).
 */
function writeTargets(rows: number, run: number) {
  const base = Math.floor(rows * (0.5 + 0.1 * run));
  const at = (offset: number, step: number, rest: number) => (i: number) =>
    seededIds.application(step * (Math.floor((base + offset * rows) / step) + i) + rest);
  return { pending: at(0, 5, 0), approved: at(0.05, 10, 2), paidOut: at(0.1, 5, 3) };
}

/** What a URL asks for, to show where the time goes. */
export function categoryOf(path: string): string {
  if (path.includes('/ledger')) return 'loan ledger';
  if (/\/api\/staff\/applications\/[0-9a-f-]{36}$/.test(path)) return 'profile';
  if (path.includes('/dashboard')) return 'dashboard';
  if (/[?&](name|phone|q)=/.test(path)) return 'search';
  if (/[?&](status|bucket|action)=/.test(path)) return 'filter';
  const page = Number(/page=(\d+)/.exec(path)?.[1] ?? 1);
  return page >= 100 ? 'list, page ≥ 100' : 'list, page < 100';
}

/**
 * One run of the workload on `url` for `options.duration` seconds, after the same-concurrency reference
 * (GET /api/health). `run` (0, 1, …) picks fresh write targets so runs never repeat a decision.
 */
export async function benchMixed(
  label: string,
  url: string,
  staff: { admin: StaffSession; officer: StaffSession; finance: StaffSession },
  urls: string[],
  rows: number,
  run: number,
  duration: number,
): Promise<MixedFigures> {
  const writesPerSecond = 2;
  // The reference: the same clients asking for the cheapest answer the server gives, just before.
  const health = await load('GET /api/health', url, { path: '/api/health' });
  const targets = writeTargets(rows, run);
  const today = todayIn('Asia/Manila');
  const counters = { decide: 0, hold: 0, release: 0, repay: 0 };
  const byCategory = new Map<string, number[]>();
  const failed: string[] = [];
  const held: string[] = [];
  const cycle: WriteKind[] = ['decide', 'hold', 'repay', 'decide', 'release', 'repay'];
  let cycleAt = 0;
  let next = 0;
  // Each client walks the shuffled list from its own place, so all of them cover every URL.
  const order = shuffle(urls, 35 + run);
  const writeTimes: number[] = [];
  const statuses = new Map<string, number>();
  let writes = 0;
  let errors = 0;
  let started = 0;
  let nextWriteAt = 0;
  const json = (session: StaffSession) => ({
    'content-type': 'application/json',
    cookie: session.cookie,
    'x-csrf-token': session.csrf,
  });
  const write = (): { path: string; body: unknown; session: StaffSession; kind: WriteKind } => {
    let kind = cycle[cycleAt++ % cycle.length]!;
    if (kind === 'release' && held.length === 0) kind = 'hold';
    if (kind === 'decide') {
      const i = counters.decide++;
      const id = targets.pending(i);
      return i % 3 === 2
        ? {
            kind,
            session: staff.officer,
            path: `/api/staff/applications/${id}/reject`,
            body: { reason: 'Income could not be verified (bench)' },
          }
        : {
            kind,
            session: staff.officer,
            path: `/api/staff/applications/${id}/approve`,
            body: { creditScore: 600 },
          };
    }
    if (kind === 'release') {
      counters.release++;
      const id = held.shift()!;
      return {
        kind,
        session: staff.officer,
        path: `/api/staff/loans/${id}/status`,
        body: { action: 'release', reason: 'Documents checked (bench)' },
      };
    }
    if (kind === 'hold') {
      const id = targets.approved(counters.hold++);
      return {
        kind,
        session: staff.officer,
        path: `/api/staff/loans/${id}/status`,
        body: {
          action: 'hold',
          reason: 'Checking documents (bench)',
          message: 'We are checking your documents.',
        },
      };
    }
    const i = counters.repay++;
    return {
      kind,
      session: staff.finance,
      path: `/api/staff/loans/${targets.paidOut(i)}/repayments`,
      body: { amount: '150.00', receivedOn: today, channel: 'cash', reference: `MIXED-${run}-${i}` },
    };
  };
  interface Context {
    sent?: { kind: WriteKind | 'read'; at: number; target: string };
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const all = await new Promise<Row>((resolve, reject) => {
    const times: number[] = [];
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        duration,
        timeout: 30,
        requests: [
          {
            setupRequest: (req: autocannon.Request, context: Context) => {
              const now = performance.now();
              if (!started) {
                started = now;
                nextWriteAt = now + 500;
              }
              if (now >= nextWriteAt) {
                nextWriteAt += 1000 / writesPerSecond;
                const w = write();
                context.sent = { kind: w.kind, at: now, target: w.path };
                return {
                  ...req,
                  method: 'POST',
                  path: w.path,
                  headers: json(w.session),
                  body: JSON.stringify(w.body),
                };
              }
              const path = order[next++ % order.length]!;
              context.sent = { kind: 'read', at: now, target: path };
              return {
                ...req,
                method: 'GET',
                path,
                headers: { cookie: staff.admin.cookie },
                body: undefined,
              };
            },
            onResponse: (status: number, _body: string, context: Context) => {
              const sent = context.sent;
              if (!sent) return;
              const expected = sent.kind === 'repay' ? status === 201 : status === 200;
              const ms = performance.now() - sent.at;
              if (sent.kind !== 'read') {
                writes += 1;
                writeTimes.push(ms);
                if (sent.kind === 'hold' && expected) held.push(sent.target.split('/')[4]!);
              } else {
                const category = categoryOf(sent.target);
                byCategory.set(category, [...(byCategory.get(category) ?? []), ms]);
              }
              if (!expected) {
                errors += 1;
                const key = `${status} ${sent.kind}`;
                statuses.set(key, (statuses.get(key) ?? 0) + 1);
                if (failed.length < 5) failed.push(`${status} ${sent.target}`);
              }
            },
          },
        ],
      } as autocannon.Options,
      (error, result) => {
        if (error) return reject(error);
        // Socket errors and timeouts have no response: counted apart.
        errors += result.errors + result.timeouts;
        if (result.errors + result.timeouts > 0)
          statuses.set('socket errors or timeouts', result.errors + result.timeouts);
        times.sort((a, b) => a - b);
        const seconds = (performance.now() - t0) / 1000;
        resolve({
          scenario: `mixed staff workload (${label})`,
          allOk: errors === 0,
          rps: times.length / seconds,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
          ok: `${times.length - errors}/${times.length}`,
          loadAverage: loadavg()[0]!,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, time: number) => {
      times.push(time);
    });
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  writeTimes.sort((a, b) => a - b);
  const figures: MixedFigures = {
    label,
    all,
    writes: {
      scenario: `  of which writes (${label})`,
      allOk: errors === 0,
      rps: writes / seconds,
      p50: percentile(writeTimes, 50),
      p95: percentile(writeTimes, 95),
      p99: percentile(writeTimes, 99),
      ok: `${counters.decide} decisions, ${counters.hold} holds, ${counters.release} releases, ${counters.repay} repayments sent`,
      loadAverage: all.loadAverage,
    },
    health,
    distinctUrls: new Set(order).size,
    errors,
    errorDetail:
      [...statuses].map(([k, n]) => `${n}× ${k}`).join(', ') +
      (failed.length ? ` — e.g. ${failed.join('; ')}` : ''),
    writesPerSecond: writes / seconds,
    clientCpu: (cpu.user + cpu.system) / 1000 / (seconds * 1000),
    loadAverage: all.loadAverage ?? loadavg()[0]!,
  };
  log(
    `   ${label}: ${all.rps.toFixed(0)} req/s over ${figures.distinctUrls} URLs, p95 ${all.p95.toFixed(1)} ms, p99 ${all.p99.toFixed(1)} ms, ${figures.writesPerSecond.toFixed(2)} writes/s, ${errors} errors${errors ? ` (${figures.errorDetail})` : ''}; client CPU ${(figures.clientCpu * 100).toFixed(0)} % of a core; load ${figures.loadAverage.toFixed(2)}`,
  );
  // Where the time goes: each kind of read, timed from the request's start to its answer.
  log(
    `   ${label}, reads by kind: ${[...byCategory]
      .map(([name, times]) => {
        times.sort((a, b) => a - b);
        return `${name} ×${times.length} p50 ${percentile(times, 50).toFixed(0)} / p95 ${percentile(times, 95).toFixed(0)} ms`;
      })
      .join('; ')}`,
  );
  return figures;
}

/** A seeded Fisher–Yates shuffle: the same order for the same run, so runs compare. */
function shuffle<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  const random = () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The goals of issue #35 for the mixed workload, judged on the figures of the two runs. */
export function mixedGoals(cached: MixedFigures | null, uncached: MixedFigures | null) {
  const lines: { goal: string; figure: string; pass: boolean }[] = [];
  const beside = (f: MixedFigures) =>
    `health p95 ${f.health.p95.toFixed(1)} ms at ${f.health.rps.toFixed(0)} req/s (${(f.all.p95 / Math.max(0.1, f.health.p95)).toFixed(1)}× its p95); load ${f.loadAverage.toFixed(2)}`;
  if (cached) {
    const shape = `${cached.distinctUrls} URLs, ${cached.writesPerSecond.toFixed(2)} writes/s`;
    lines.push(
      {
        goal: 'mixed workload, default settings: p95 ≤ 100 ms',
        figure: `p95 ${cached.all.p95.toFixed(1)} ms, ${cached.all.rps.toFixed(0)} req/s, ${shape}; ${beside(cached)}`,
        pass: cached.all.p95 <= 100,
      },
      {
        goal: 'mixed workload, default settings: p99 ≤ 250 ms',
        figure: `p99 ${cached.all.p99.toFixed(1)} ms, p50 ${cached.all.p50.toFixed(1)} ms; load ${cached.loadAverage.toFixed(2)}`,
        pass: cached.all.p99 <= 250,
      },
      {
        goal: 'mixed workload, default settings: 0 errors, ≥ 400 URLs, ≥ 1 write/s',
        figure: `${cached.errors} errors${cached.errors ? ` (${cached.errorDetail})` : ''}, ${shape}`,
        pass: cached.errors === 0 && cached.distinctUrls >= 400 && cached.writesPerSecond >= 1,
      },
    );
  }
  if (uncached) {
    lines.push({
      goal: 'mixed workload, answer cache off: p95 ≤ 150 ms',
      figure: `p95 ${uncached.all.p95.toFixed(1)} ms, p99 ${uncached.all.p99.toFixed(1)} ms, ${uncached.all.rps.toFixed(0)} req/s, ${uncached.distinctUrls} URLs, ${uncached.writesPerSecond.toFixed(2)} writes/s, ${uncached.errors} errors; ${beside(uncached)}`,
      pass: uncached.all.p95 <= 150 && uncached.errors === 0,
    });
  }
  return lines;
}
