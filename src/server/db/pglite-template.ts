import { chmodSync, cpSync, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A migrated PGlite data directory made at build time (create-template.ts, docs/decisions/021). PGlite's
 * initdb runs in WASM and takes seconds; copying a closed, migrated cluster's files takes a fraction of
 * that, so a first start on an empty DATA_DIR is as quick as any other. The files are the ones PGlite's
 * own dumpDataDir/loadDataDir would carry through a tarball, without its in-WASM file system in between.
 * Migrations still run after the copy, so a template older than the code only leaves work for them.
 *
 * On a data directory without a database, puts the template's files in place (through a temporary name
 * and a rename, so a crash mid-copy leaves no half database) and returns true. The caller holds the data
 * directory's lock. A directory that has a database, or a missing template, is left alone.
 *
 * The template belongs to whoever built it (root, in the image) and only needs to be readable; the copy
 * belongs to the user the server runs as and is made private to it (0700/0600), as PostgreSQL keeps its
 * own data directory: it will hold borrowers' data.
 */
export function seedFromTemplate(pgdata: string, templateDir: string): boolean {
  if (!existsSync(join(templateDir, 'PG_VERSION'))) return false;
  if (existsSync(pgdata)) {
    // Only an empty folder is replaced; anything else is PGlite's to open (or to initdb).
    if (readdirSync(pgdata).length > 0) return false;
    rmSync(pgdata, { recursive: true });
  }
  const partial = `${pgdata}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(templateDir, partial, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    // Said plainly: the usual cause is a build that left the template readable by its owner only.
    throw new Error(
      `Cannot read the database template ${templateDir} as uid ${process.getuid?.()}: every file in it ` +
        `must be readable by the user the server runs as (scripts/build-server.mjs makes it so). ` +
        `${(error as Error).message}`,
    );
  }
  makePrivate(partial);
  renameSync(partial, pgdata);
  return true;
}

function makePrivate(dir: string) {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
  }
}
