import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The `domain/loan` barrel re-exports `status.ts`, which builds its status machine at import (kept by the
 * bundler as a top-level call) from `status-machine.ts`, which imports the English error catalogue: a web
 * module importing the barrel puts the catalogue into its page's first load (~4.6 KiB gzip on step 1, issue
 * #35; docs/decisions/045). Web code imports each loan module itself.
 */
const webRoot = import.meta.dirname;

describe('web imports of domain/loan', () => {
  it('name the loan module, never the barrel', () => {
    const files = readdirSync(webRoot, { recursive: true, encoding: 'utf8' }).filter(
      // Test helpers (test/) never reach a browser.
      (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('test/'),
    );
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.filter((file) =>
      /from\s+'(?:\.\.\/)+domain\/loan(?:\/index)?'/.test(readFileSync(join(webRoot, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
