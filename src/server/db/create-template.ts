/**
 * Build step (scripts/build-server.mjs): `node dist/server/create-template.js <dir>` writes the migrated
 * PGlite template that a first start copies instead of running initdb (db/pglite-template.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { migrateToLatest, openDatabase } from './open';
import { packTemplate, slimCluster } from './pglite-template';

/** Migrates a fresh PGlite database in a scratch folder, closes and slims it, and packs its files into `templateDir`. */
async function createPgliteTemplate(templateDir: string): Promise<void> {
  const work = mkdtempSync(join(dirname(templateDir), '.pglite-template-'));
  try {
    const database = await openDatabase({ kind: 'pglite', dataDir: work });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    await slimCluster(join(work, 'pgdata'));
    packTemplate(join(work, 'pgdata'), templateDir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const target = process.argv[2];
if (!target) {
  console.error('usage: create-template <directory>');
  process.exit(2);
}
createPgliteTemplate(resolve(target)).then(
  // PGlite may keep a handle open after close; the build step must not wait for it.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
