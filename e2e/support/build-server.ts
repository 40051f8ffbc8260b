import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `main.js` of the server this e2e run built (e2e/support/server.ts starts it). */
    e2eServer: string;
  }
}

/**
 * Global setup of the e2e run: builds the server once (scripts/build-server.mjs, as `npm run build` does),
 * and every file's server starts from that build as `npm start` would — with the migrated PGlite template
 * a first start copies instead of running initdb, and no TypeScript compiled on the way. Started from the
 * sources through tsx, each of the ~30 starts of a run took 10–15 s more on a loaded 2-core machine.
 * The build goes to a folder of this run's own beside dist/web (the server finds the web app at
 * ../../dist/web), so it never replaces the dist/server a developer's `npm start` is running from, nor
 * another run's; it is removed at the end.
 */
export default function setup(project: TestProject) {
  mkdirSync('dist', { recursive: true });
  const out = mkdtempSync(join('dist', 'e2e-server-'));
  try {
    execFileSync(process.execPath, ['scripts/build-server.mjs', '--out', out], { stdio: 'inherit' });
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  project.provide('e2eServer', resolve(out, 'main.js'));
  return () => rmSync(out, { recursive: true, force: true });
}
