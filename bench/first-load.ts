/**
 * `npm run bench:first-load` (and a stage of `npm run bench`): what a borrower downloads on a first visit.
 * 1. From the Vite manifest (dist/web/.vite/manifest.json, run `npx vite build` first): the entry chunk and
 *    its static imports (JS) and their CSS, with raw, gzip and brotli sizes.
 * 2. From the real server (started on a throw-away DATA_DIR): headless Chromium loads /login and sums the
 *    bytes on the wire (CDP Network.loadingFinished encodedDataLength) per resource type.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startAppProcess, waitUntilReady } from '../src/server/test-support/app-process';

const webRoot = process.env.WEB_ROOT ?? join(import.meta.dirname, '..', 'dist', 'web');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const manifest = (): Record<string, ManifestChunk> =>
  JSON.parse(readFileSync(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

/**
 * The files a first visit to a page downloads: the entry with its static imports, the reader's language
 * (English here; each language is a chunk of its own) and the page's own lazily loaded chunks.
 */
function bundleSizes(pageChunks: string[]) {
  const chunks = manifest();
  const entryKey = Object.keys(chunks).find((key) => chunks[key]?.isEntry);
  if (!entryKey) throw new Error('The Vite manifest has no entry');
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = chunks[key];
    if (!chunk) throw new Error(`The Vite manifest has no chunk ${key}`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of [entryKey, 'src/web/locales/en.bundle.ts', ...pageChunks]) visit(key);
  const totals = { js: { raw: 0, gzip: 0, br: 0 }, css: { raw: 0, gzip: 0, br: 0 } };
  for (const file of files) {
    const content = readFileSync(join(webRoot, file));
    const kind = file.endsWith('.css') ? 'css' : 'js';
    totals[kind].raw += content.length;
    totals[kind].gzip += gzipSync(content, { level: 9 }).length;
    totals[kind].br += brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  }
  return { files: [...files], totals };
}

async function wireBytes(baseUrl: string) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const types = new Map<string, string>();
    const byType = new Map<string, { count: number; bytes: number }>();
    cdp.on('Network.responseReceived', (event) => {
      const url = new URL(event.response.url);
      const type = url.pathname.startsWith('/api/') ? 'api' : event.type.toLowerCase();
      types.set(event.requestId, type);
    });
    cdp.on('Network.loadingFinished', (event) => {
      const type = types.get(event.requestId) ?? 'other';
      const entry = byType.get(type) ?? { count: 0, bytes: 0 };
      entry.count += 1;
      entry.bytes += event.encodedDataLength;
      byType.set(type, entry);
    });
    const started = Date.now();
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
    await page
      .getByRole('button', { name: /sign in|log in/i })
      .first()
      .waitFor();
    const loadMs = Date.now() - started;
    return { byType, loadMs };
  } finally {
    await browser.close();
  }
}

/** Borrower first-load JS goal (issue #12): gzip bytes for /login, /signup and the step-1 page. */
const firstLoadGoal = 200 * 1024;
const pages: [string, string[]][] = [
  ['/login', ['src/web/features/auth/components/login-page.tsx']],
  ['/signup', ['src/web/features/auth/components/signup-page.tsx']],
  ['/loan/application (step 1)', ['src/web/features/application/components/step1-page.tsx']],
];
/** Bundle sizes per route and bytes on the wire (`npm run bench:first-load`, and `npm run bench`). */
export async function benchFirstLoad() {
  for (const [page, pageChunks] of pages) {
    const { files, totals } = bundleSizes(pageChunks);
    console.info(`${page}: entry + static imports + English strings + page chunks (${files.length} files):`);
    for (const kind of ['js', 'css'] as const) {
      const t = totals[kind];
      console.info(`  ${kind.padEnd(3)} raw ${kib(t.raw)}  gzip ${kib(t.gzip)}  brotli ${kib(t.br)}`);
    }
    const verdict = totals.js.gzip <= firstLoadGoal ? 'pass' : 'FAIL';
    console.info(`  JS gzip ${kib(totals.js.gzip)} vs goal ≤ ${kib(firstLoadGoal)}: ${verdict}`);
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-first-load-'));
  const server = await startAppProcess(
    'the server',
    { DATA_DIR: dataDir, HOST: '127.0.0.1', JOBS_ENABLED: process.env.JOBS_ENABLED ?? 'true' },
    { production: true, inheritEnv: true },
  );
  try {
    await waitUntilReady(server, { pollMs: 200 });
    const { byType, loadMs } = await wireBytes(server.baseUrl);
    let total = 0;
    console.info('Headless Chromium, first load of /login (bytes on the wire):');
    for (const [type, { count, bytes }] of [...byType].sort((a, b) => b[1].bytes - a[1].bytes)) {
      total += bytes;
      console.info(`  ${type.padEnd(10)} ${String(count).padStart(3)} responses  ${kib(bytes)}`);
    }
    console.info(`  total                     ${kib(total)}  (page ready in ${loadMs} ms)`);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run on its own (`npm run bench:first-load`); `npm run bench` imports it.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchFirstLoad();
