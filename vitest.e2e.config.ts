import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files run one at a time, in name order: 01-auth first uses the bootstrap admin's one-time password. */
class ByName extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

// End-to-end flows in Debian's Chromium through playwright-core, against the real server.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    fileParallelism: false,
    sequence: { sequencer: ByName },
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
