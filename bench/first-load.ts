/**
 * `npm run bench:first-load` (and a stage of `npm run bench`): what a borrower's phone downloads on a first
 * visit, and whether the page moves while it arrives (issue #35). Run `npx vite build` first.
 * The real server runs in production mode on a throw-away DATA_DIR with two borrowers written straight into
 * the database: one who has agreed to the privacy notice in force, and one whose consent is for an older
 * version (every borrower page then shows the "Our privacy notice has changed" card instead). Headless
 * Chromium (/usr/bin/chromium), a phone's viewport (390 × 844) with Lighthouse's mobile throttling (4× CPU,
 * 150 ms round trips, 1.6 Mbit/s), loads each borrower page with an empty cache and waits until the page
 * settles: its own content is drawn and no request has been under way for 1.5 s. Per page it prints:
 * - JavaScript: every script response Chromium received until then (the entry, the language's strings, the
 *   page's chunks and any lazy chunk fetched at once), counted at its gzip size (the `.gz` the build wrote
 *   beside it, level 9), and as brotli bytes on the wire; goal ≤ 180 KiB gzip on /login, /signup and step 1;
 * - CLS: the largest session window of `layout-shift` entries (the Web Vitals definition), goal ≤ 0.02 on
 *   every borrower page.
 * FIRST_LOAD_FILES=1 also lists each page's scripts with their gzip sizes; FIRST_LOAD_PAGES=login,step 1
 * measures only the pages whose label contains one of those words.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { startAppProcess, waitUntilReady } from '../src/server/test-support/app-process';
import { freePort } from '../src/server/test-support/free-port';
import { borrowerWithPhone, seedBrowserBench } from './browser-seed';

const webRoot = process.env.WEB_ROOT ?? join(import.meta.dirname, '..', 'dist', 'web');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const PASSWORD = 'first load bench pass 2026';
const BORROWER = '09170000001';
/** Agreed to an older privacy notice: the server asks for consent again, the app shows the notice card. */
const BORROWER_OLD_CONSENT = '09170000002';

/** Issue #35's goals. */
const jsGoal = 180 * 1024;
const clsGoal = 0.02;

const seed = (dataDir: string) =>
  seedBrowserBench(dataDir, PASSWORD, [
    borrowerWithPhone(BORROWER),
    // Agreed to an older notice: the "privacy notice has changed" card shows on every page.
    { ...borrowerWithPhone(BORROWER_OLD_CONSENT), privacy_notice_version: '2020-01-01' },
  ]);

async function sessionCookie(baseUrl: string, identifier: string) {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`Login as ${identifier} failed: ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0]!)
    .find((pair) => pair.includes('session='));
  if (!cookie) throw new Error(`Login as ${identifier} set no session cookie`);
  const [name, ...value] = cookie.split('=');
  return { name: name!, value: value.join('=') };
}

/** The size a script is sent at with gzip: the build's own `.gz` (files under 1 KiB have none). */
function gzipSize(pathname: string): number {
  const file = join(webRoot, decodeURIComponent(pathname));
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

interface PageCase {
  label: string;
  path: string;
  who?: string;
  /** Shown once the page is drawn (not the loading screen). */
  ready: string;
  /** Held to the JavaScript goal. */
  jsGoal?: boolean;
}

const pageCases: PageCase[] = [
  { label: '/login', path: '/login', ready: 'form button[type=submit]', jsGoal: true },
  { label: '/signup', path: '/signup', ready: 'form button[type=submit]', jsGoal: true },
  { label: '/forgot-password', path: '/forgot-password', ready: 'form button[type=submit]' },
  { label: 'step 1', path: '/loan/application', who: BORROWER, ready: 'main form', jsGoal: true },
  { label: 'step 2', path: '/loan/info', who: BORROWER, ready: 'main h1, main h2' },
  { label: '/wallet', path: '/wallet', who: BORROWER, ready: 'main h1, main h2' },
  { label: '/account', path: '/account', who: BORROWER, ready: 'main h1, main h2' },
  // The same pages for a borrower whose consent is for an older notice: the card replaces each of them.
  ...['/loan/application', '/loan/info', '/wallet', '/account'].map((path) => ({
    label: `${path} (notice changed)`,
    path,
    who: BORROWER_OLD_CONSENT,
    ready: 'form input[type=checkbox]',
  })),
];

/** Collects layout shifts from the start of the page (Web Vitals: session windows of ≤ 5 s, 1 s gaps). */
const clsObserver = () => {
  const shifts: { value: number; time: number }[] = [];
  (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[])
      if (!entry.hadRecentInput) shifts.push({ value: entry.value, time: entry.startTime });
  }).observe({ type: 'layout-shift', buffered: true });
};

function largestSessionWindow(shifts: { value: number; time: number }[]): number {
  let largest = 0;
  let current = 0;
  let windowStart = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (const { value, time } of shifts) {
    if (time - last > 1000 || time - windowStart > 5000) {
      current = 0;
      windowStart = time;
    }
    current += value;
    last = time;
    largest = Math.max(largest, current);
  }
  return largest;
}

async function measurePage(
  browser: Browser,
  baseUrl: string,
  pageCase: PageCase,
  cookies: Map<string, { name: string; value: string }>,
) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const who = pageCase.who ? cookies.get(pageCase.who) : undefined;
    if (who) await context.addCookies([{ ...who, domain: new URL(baseUrl).hostname, path: '/' }]);
    await context.addInitScript(clsObserver);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const scripts = new Map<string, string>();
    const scriptFiles: { path: string; wire: number }[] = [];
    let lastActivity = Date.now();
    let inFlight = 0;
    cdp.on('Network.requestWillBeSent', () => {
      inFlight += 1;
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') scripts.set(event.requestId, new URL(event.response.url).pathname);
    });
    const finished = (event: { requestId: string; encodedDataLength?: number }) => {
      inFlight = Math.max(0, inFlight - 1);
      lastActivity = Date.now();
      const path = scripts.get(event.requestId);
      if (path && event.encodedDataLength !== undefined)
        scriptFiles.push({ path, wire: event.encodedDataLength });
    };
    cdp.on('Network.loadingFinished', finished);
    cdp.on('Network.loadingFailed', (event) => finished({ requestId: event.requestId }));
    const started = Date.now();
    await page.goto(`${baseUrl}${pageCase.path}`, { waitUntil: 'load' });
    await page.locator(pageCase.ready).first().waitFor({ timeout: 60_000 });
    const readyMs = Date.now() - started;
    // Settled: nothing under way and nothing new for 1.5 s (lazy chunks fetched after the first render count).
    while (inFlight > 0 || Date.now() - lastActivity < 1500) await page.waitForTimeout(100);
    const shifts = await page.evaluate(
      () => (window as unknown as { __shifts: { value: number; time: number }[] }).__shifts,
    );
    if (process.env.FIRST_LOAD_FILES)
      for (const file of scriptFiles) console.info(`    ${file.path} ${kib(gzipSize(file.path))}`);
    const js = scriptFiles.reduce((sum, file) => sum + gzipSize(file.path), 0);
    const wire = scriptFiles.reduce((sum, file) => sum + file.wire, 0);
    return {
      finalPath: new URL(page.url()).pathname,
      files: scriptFiles.length,
      js,
      wire,
      cls: largestSessionWindow(shifts),
      readyMs,
    };
  } finally {
    await context.close();
  }
}

/** Bytes and layout shifts of every borrower page (`npm run bench:first-load`, and `npm run bench`). */
export async function benchFirstLoad() {
  if (!existsSync(join(webRoot, 'index.html'))) throw new Error(`No build in ${webRoot}: run npx vite build`);
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-first-load-'));
  await seed(dataDir);
  const port = await freePort();
  const server = await startAppProcess(
    'the server',
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      // Plain http: with an http:// PUBLIC_URL the session cookie has no __Host- prefix, so it can be set here.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      JOBS_ENABLED: process.env.JOBS_ENABLED ?? 'false',
      LOG_LEVEL: 'warn',
    },
    { port, production: true, inheritEnv: true },
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    await waitUntilReady(server, { pollMs: 200 });
    const cookies = new Map([
      [BORROWER, await sessionCookie(server.baseUrl, BORROWER)],
      [BORROWER_OLD_CONSENT, await sessionCookie(server.baseUrl, BORROWER_OLD_CONSENT)],
    ]);
    const check = (ok: boolean) => (ok ? 'pass' : 'FAIL');
    console.info(
      'First load on a phone (390 × 844, 4× CPU, 150 ms RTT, 1.6 Mbit/s, empty cache), until the page settles:',
    );
    const only = process.env.FIRST_LOAD_PAGES?.split(',');
    for (const pageCase of pageCases.filter((c) => !only || only.some((o) => c.label.includes(o)))) {
      const m = await measurePage(browser, server.baseUrl, pageCase, cookies);
      const moved = m.finalPath === pageCase.path ? '' : ` → ${m.finalPath}`;
      const jsVerdict = pageCase.jsGoal ? ` (goal ≤ ${kib(jsGoal)}: ${check(m.js <= jsGoal)})` : '';
      console.info(
        `  ${pageCase.label.padEnd(34)}${moved} JS ${kib(m.js)} gzip${jsVerdict}, ${kib(m.wire)} brotli on the wire, ` +
          `${m.files} scripts; CLS ${m.cls.toFixed(3)} (goal ≤ ${clsGoal}: ${check(m.cls <= clsGoal)}); drawn in ${m.readyMs} ms`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run on its own (`npm run bench:first-load`); `npm run bench` imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchFirstLoad();
