import { defineConfig } from 'vitest/config';

// End-to-end flows in Debian's Chromium through playwright-core, against the real server. Each file
// starts its own fresh server (e2e/support/app-per-file.ts), so files run alone and in any order; they run
// one at a time only to spare the machine (one browser and one server at once). Two at a time was tried on
// the 2-core CI machine while others worked on it (load average 3–13): each file took about twice as long,
// and four short files took 91 s instead of 67 s, six 202 s instead of 175 s.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    // The server is built once per run; each file's server starts from that build (build-server.ts).
    globalSetup: ['e2e/support/build-server.ts'],
    setupFiles: ['e2e/support/app-per-file.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
