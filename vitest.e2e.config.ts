import { defineConfig } from 'vitest/config';

// End-to-end flows in Debian's Chromium through playwright-core, against the real server. Each file
// starts its own fresh server (e2e/support/app-per-file.ts: own process, data dir and port), so files run
// alone, in any order and side by side. Three at a time: `npm test` runs this stage after the vitest
// projects (scripts/test-together.mjs, docs/decisions/063); alone, three files keep about 0.8 of the two cores
// busy (the rest is the browser's, the server's and the timers' waits), and four took longer than three
// (load 12–16: each file's browser and server waited on the others).
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
