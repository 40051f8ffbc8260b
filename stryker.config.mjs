// Mutation testing of the money and status rules (`npm run mutation`; not part of `npm test`, it takes
// minutes). A surviving mutant in these files is a test that cannot fail: kill it with a sharper test,
// or, only when it is truly equivalent, disable that one line with a reason.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: [
    'src/domain/money.ts',
    'src/domain/permissions.ts',
    'src/domain/loan/**/*.ts',
    '!src/domain/**/*.test.ts',
    '!src/domain/loan/**/index.ts',
  ],
  // The machine is shared: at most two runners. `npm run mutation -- --concurrency 1` to be gentler.
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
  timeoutMS: 10_000,
};
