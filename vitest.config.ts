import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One run, several projects: pure unit tests, web components (jsdom), and the API suite twice — on
// PGlite and on a throw-away PostgreSQL 15 cluster that the global setup starts itself.
const apiTests = ['src/server/**/*.api.test.ts'];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the CPUs: one file at a time on a 2-core machine (CI), with
    // the second core mostly idle while a file waits on PostgreSQL, a server process or a timer. Two at
    // least; more CPUs keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/domain/**/*.test.ts', 'src/server/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: apiTests,
          // Property tests replay hundreds of loans; a loaded 2-core machine must not turn them into timeouts.
          testTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/test/setup.ts'],
          // Component tests render whole pages; give a loaded 2-core CI machine room.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api-pglite',
          environment: 'node',
          include: apiTests,
          env: { TEST_DB: 'pglite' },
          globalSetup: ['src/server/test-support/pglite-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          environment: 'node',
          include: apiTests,
          env: { TEST_DB: 'postgres' },
          globalSetup: ['src/server/test-support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
