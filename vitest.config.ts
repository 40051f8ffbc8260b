import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// One run, several projects: pure unit tests, web components (jsdom), and the API suite twice — on
// PGlite and on a throw-away PostgreSQL 15 cluster that the global setup starts itself.
const apiTests = ['src/server/**/*.api.test.ts'];
// The unit and API test files share their worker's modules (isolate: false): importing the whole server
// again for every file was a third of those projects' CPU. Each file builds its own app, database and
// clock; a file that replaces a module imports it afresh (vi.resetModules and vi.doMock, as
// auth/sign-up-hashing.api.test.ts does). A worker is kept for the next file only when that file is of the
// same project, so the files stay grouped by project (Vitest's own order); `npm run test:shuffled` shuffles
// them within each project to find state one file leaves for the next. The web project stays isolated:
// its lazily loaded components remember what they loaded (the language menu, step 1's rules), and a
// shuffled run showed tests that depend on the first load. docs/decisions/057.
const isolate = false;

/** A small seeded generator (mulberry32): the same seed gives the same order. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Vitest's order (projects one after another, the longest files first); with TEST_SHUFFLE set (a seed, or
 * any other value for a new one), each project's files in a random order instead, still project by project,
 * so files share modules exactly as they do in the usual run.
 */
class ProjectsInTurn extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const wanted = process.env.TEST_SHUFFLE;
    if (!wanted) return sorted;
    const seed = /^\d+$/.test(wanted) ? Number(wanted) : Date.now() % 1_000_000;
    process.stdout.write(
      `Files shuffled within each project, seed ${seed} (TEST_SHUFFLE=${seed} repeats it)\n`,
    );
    const byProject = new Map<string, TestSpecification[]>();
    for (const file of sorted) {
      const group = byProject.get(file.project.name);
      if (group) group.push(file);
      else byProject.set(file.project.name, [file]);
    }
    return [...byProject].flatMap(([name, group]) => {
      // Each project from its own stream: `--project web` alone repeats the web files' order of a whole run.
      const random = seededRandom(
        [...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16_777_619), seed),
      );
      for (let i = group.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [group[i], group[j]] = [group[j] as TestSpecification, group[i] as TestSpecification];
      }
      return group;
    });
  }
}

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the CPUs: one file at a time on a 2-core machine (CI), with
    // the second core mostly idle while a file waits on PostgreSQL, a server process or a timer. Three at
    // least: the unit and API projects took 205 s with three against 243 s with two on this 2-core machine,
    // the same CPU (docs/decisions/058); more CPUs keep the default.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    sequence: { sequencer: ProjectsInTurn },
    projects: [
      {
        test: {
          name: 'unit',
          isolate,
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
          // Each file in a VM context of its own (still isolated) instead of a new process: 206 against 281
          // CPU s for the 67 files (docs/decisions/058).
          pool: 'vmThreads',
          // Component tests render whole pages; give a loaded 2-core CI machine room.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api-pglite',
          isolate,
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
          isolate,
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
