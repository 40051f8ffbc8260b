import { defineConfig } from 'vitest/config';

// End-to-end flows in Debian's Chromium through playwright-core, against the real server. Each file
// starts its own fresh server (e2e/support/app-per-file.ts: own process, data dir and port), so files run
// alone, in any order and side by side. Four at a time: a file keeps only about half a core busy (the rest
// is the browser's and the timers' waits), and `npm test` runs this beside the vitest projects at a lower CPU
// priority (scripts/test-together.mjs); the whole run used ~63 % of two cores with three (decision 058).
// E2E_WORKERS=1 runs them one at a time (docs/decisions/053).
const workers = Number(process.env.E2E_WORKERS ?? 4);

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    // The server is built once per run; each file's server starts from that build (build-server.ts).
    globalSetup: ['e2e/support/build-server.ts'],
    setupFiles: ['e2e/support/app-per-file.ts'],
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
