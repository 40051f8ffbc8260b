import { defineConfig } from 'vitest/config';

// Only the pure domain tests, for Stryker (stryker.config.mjs): no web, API or database projects,
// so every mutant runs in a second instead of booting PGlite or PostgreSQL.
export default defineConfig({
  test: {
    name: 'mutation',
    environment: 'node',
    include: ['src/domain/**/*.test.ts'],
    // Instrumented code runs the property tests several times slower; a Vitest timeout would count as a
    // killed mutant. Stryker has its own timeout for mutants that loop forever.
    testTimeout: 60_000,
  },
});
