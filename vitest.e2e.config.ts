import { defineConfig } from 'vitest/config';

// End-to-end flows in Debian's Chromium through playwright-core, against the real server. Each file
// starts its own fresh server (e2e/support/app-per-file.ts: own process, data dir and port), so files run
// alone, in any order and side by side. Three at a time: a file keeps only about half a core busy (the rest
// is the browser's and the timers' waits), so three fill the two cores once the vitest projects, which
// `npm test` runs beside this at a higher CPU priority (scripts/test-together.mjs), are done. Four were
// tried: faster, but API tests ran out of time beside them (docs/decisions/058).
// E2E_WORKERS=1 runs them one at a time (docs/decisions/053).
const workers = Number(process.env.E2E_WORKERS ?? 3);

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    // The server is built once per run; each file's server starts from that build (build-server.ts).
    globalSetup: ['e2e/support/build-server.ts'],
    setupFiles: ['e2e/support/app-per-file.ts'],
    fileParallelism: workers > 1,
    maxWorkers: workers,
    // expect.poll waits for the real server and browser: Vitest's 1 s default failed the sign-up's "Resend in"
    // on a loaded 2-core machine (load 14–16). A poll that should fail still fails, later.
    expect: { poll: { timeout: 15_000 } },
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
