/**
 * `npm run lighthouse` (and the last stage of `npm run bench`): Lighthouse scores of the built app (run
 * `npx vite build` first; `npm run bench` builds what is stale), as a borrower's phone
 * and a staff member's desktop see it (issue #12 goals):
 * - mobile preset: /login signed out, and the step-1 page /loan/application signed in as a borrower —
 *   Performance ≥ 95, Accessibility 100, Best Practices 100, CLS ≤ 0.02;
 * - desktop preset: /admin/home signed in as an officer — Performance ≥ 95.
 * The server runs in production mode on a throw-away DATA_DIR with one borrower and one officer written
 * straight into the database; Chromium is Debian's (/usr/bin/chromium, or CHROME_PATH).
 * LIGHTHOUSE_REPORT_DIR=<dir> also writes each full report there as JSON.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { hashPassword } from '../src/server/auth/passwords';
import { DEFAULT_PRIVACY_NOTICE_VERSION } from '../src/server/config';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import { freePort } from '../src/server/test-support/free-port';

const PASSWORD = 'lighthouse bench pass 2026';
const BORROWER_PHONE = '09170000001';

async function seed(dataDir: string) {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await migrateToLatest(database.db);
    const passwordHash = await hashPassword(PASSWORD);
    await database.db
      .insertInto('users')
      .values([
        {
          username: null,
          phone: BORROWER_PHONE,
          password_hash: passwordHash,
          role: 'borrower',
          privacy_notice_version: DEFAULT_PRIVACY_NOTICE_VERSION,
        },
        { username: 'lighthouse-officer', phone: null, password_hash: passwordHash, role: 'officer' },
      ])
      .execute();
  } finally {
    await database.close();
  }
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'hiram-lighthouse-session-secret-0123456789-abcdefgh',
      LOG_LEVEL: 'warn',
      DEV_OUTBOX: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('The server exited early');
    const ready = await fetch(`${url}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error('The server did not become ready');
}

async function sessionCookie(url: string, identifier: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password: PASSWORD }),
  });
  if (!response.ok)
    throw new Error(`Login as ${identifier} failed: ${response.status} ${await response.text()}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

interface Audit {
  page: string;
  preset: 'mobile' | 'desktop';
  cookie?: string;
  goals: { performance: number; accessibility?: number; bestPractices?: number; cls?: number };
}

async function run(url: string, audit: Audit, port: number) {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    ...(audit.cookie ? { extraHeaders: { Cookie: audit.cookie } } : {}),
  };
  const config: Config | undefined = audit.preset === 'desktop' ? (desktopConfig as Config) : undefined;
  const result = await lighthouse(`${url}${audit.page}`, flags, config);
  if (!result) throw new Error(`Lighthouse returned nothing for ${audit.page}`);
  const reportDir = process.env.LIGHTHOUSE_REPORT_DIR;
  if (reportDir) {
    // The whole report, to read what the score is made of (LCP breakdown, request chains, main-thread work).
    const name = `${audit.preset}${audit.page.replaceAll('/', '-')}.json`;
    writeFileSync(join(reportDir, name), JSON.stringify(result.lhr, null, 1));
  }
  const { categories, audits, runtimeError, runWarnings } = result.lhr;
  if (runtimeError)
    console.info(`  Lighthouse could not measure: ${runtimeError.code} ${runtimeError.message}`);
  for (const warning of runWarnings) console.info(`  warning: ${warning}`);
  const score = (key: string) => Math.round((categories[key]?.score ?? 0) * 100);
  const figures = {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    cls: Number(audits['cumulative-layout-shift']?.numericValue ?? Number.NaN),
    lcp: Number(audits['largest-contentful-paint']?.numericValue ?? Number.NaN),
    tbt: Number(audits['total-blocking-time']?.numericValue ?? Number.NaN),
  };
  const check = (ok: boolean) => (ok ? 'pass' : 'FAIL');
  console.info(`${audit.page} (${audit.preset}${audit.cookie ? ', signed in' : ''}):`);
  console.info(
    `  Performance ${figures.performance} (goal ≥ ${audit.goals.performance}: ${check(figures.performance >= audit.goals.performance)})`,
  );
  if (audit.goals.accessibility !== undefined)
    console.info(
      `  Accessibility ${figures.accessibility} (goal ${audit.goals.accessibility}: ${check(figures.accessibility >= audit.goals.accessibility)})`,
    );
  else console.info(`  Accessibility ${figures.accessibility}`);
  if (audit.goals.bestPractices !== undefined)
    console.info(
      `  Best Practices ${figures.bestPractices} (goal ${audit.goals.bestPractices}: ${check(figures.bestPractices >= audit.goals.bestPractices)})`,
    );
  else console.info(`  Best Practices ${figures.bestPractices}`);
  const cls =
    audit.goals.cls !== undefined
      ? ` (goal ≤ ${audit.goals.cls}: ${check(figures.cls <= audit.goals.cls)})`
      : '';
  console.info(
    `  CLS ${figures.cls.toFixed(3)}${cls}; LCP ${(figures.lcp / 1000).toFixed(1)} s; TBT ${figures.tbt.toFixed(0)} ms`,
  );
  for (const [id, item] of Object.entries(audits)) {
    if (
      item.score !== null &&
      item.score < 1 &&
      ['accessibility', 'best-practices'].some((c) =>
        categories[c]?.auditRefs.some((r) => r.id === id && r.weight > 0),
      )
    )
      console.info(`    to fix: ${item.title} ${JSON.stringify(item.details ?? '').slice(0, 400)}`);
  }
}

/** Lighthouse on the built app (`npm run lighthouse`, and the last stage of `npm run bench`). */
export async function benchLighthouse() {
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-lighthouse-'));
  let server: { url: string; child: ChildProcess } | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await seed(dataDir);
    server = await startServer(dataDir);
    const borrower = await sessionCookie(server.url, BORROWER_PHONE);
    const officer = await sessionCookie(server.url, 'lighthouse-officer');
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    });
    const phoneGoals = { performance: 95, accessibility: 100, bestPractices: 100, cls: 0.02 };
    const audits: Audit[] = [
      { page: '/login', preset: 'mobile', goals: phoneGoals },
      { page: '/loan/application', preset: 'mobile', cookie: borrower, goals: phoneGoals },
      { page: '/admin/home', preset: 'desktop', cookie: officer, goals: { performance: 95 } },
    ];
    for (const audit of audits) await run(server.url, audit, chrome.port);
  } finally {
    chrome?.kill();
    if (server) {
      const exited = new Promise((resolve) => server?.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run on its own (`npm run lighthouse`); `npm run bench` imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchLighthouse();
