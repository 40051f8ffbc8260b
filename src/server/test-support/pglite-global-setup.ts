import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../db/open';
import { slimCluster } from '../db/pglite-template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data-dir dump with every migration applied; each test app loads it instead of running initdb. */
    pgliteTemplate: string;
  }
}

/**
 * Global setup of the "api-pglite" project. A fresh in-memory PGlite spends most of its ~2 s start in
 * initdb; loading a dump takes a fraction of that. The template is built once per run through the app's
 * own openDatabase (same extensions and settings) and migrations, then dumped; it is removed at the end.
 * Test apps still run migrateToLatest (a no-op on the template).
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'hiram-pglite-'));
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'data') });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    // As the app's template: without the template databases and the migrations' WAL, a quarter of the bytes
    // each test app loads.
    await slimCluster(join(dir, 'data', 'pgdata'));
    // Reopened only to dump the files; extensions are loaded by whoever opens the dump.
    const pglite = await PGlite.create(join(dir, 'data', 'pgdata'));
    try {
      const dump = await pglite.dumpDataDir('none');
      const path = join(dir, 'template.tar');
      writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
      project.provide('pgliteTemplate', path);
    } finally {
      await pglite.close();
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
