import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';

/**
 * A migrated PGlite data directory made at build time (create-template.ts, docs/decisions/021). PGlite's
 * initdb runs in WASM and takes seconds; unpacking a closed, migrated cluster's files takes a fraction of
 * that, so a first start on an empty DATA_DIR is as quick as any other. The files are the ones PGlite's
 * own dumpDataDir/loadDataDir would carry through a tarball, without its in-WASM file system in between.
 * Migrations still run after the copy, so a template older than the code only leaves work for them.
 *
 * The template is one gzip file (PACKED inside the template folder): the cluster is 40 MB, mostly empty
 * pages and an unused WAL segment, and packs to 5 MB, which is most of what the image would otherwise carry
 * (issue #34). Unpacking costs about what copying 1,100 files did. It belongs to whoever built it (root, in
 * the image) and is only read; the files it unpacks to belong to the user the server runs as and are
 * private to it (0700/0600, as PostgreSQL keeps its own data directory): they will hold borrowers' data.
 */
const PACKED = 'pgdata.gz';

/**
 * What packTemplate writes, before gzip: a JSON manifest's length (4 bytes), the manifest, the files' bytes
 * without their trailing zeros (an unused WAL segment is 16 MB of them; unpacking extends the file to its
 * size, which costs no writing).
 */
interface Manifest {
  dirs: string[];
  files: [path: string, size: number, stored: number][];
}

/**
 * Makes a closed, migrated cluster as small as it can be before it is copied (the template, and the API
 * tests' in-memory dump): drops `template0` and `template1`, and ends the WAL segment that holds the
 * migrations' records. Half of a fresh cluster's 1,160 files and 34 MB are those two databases (an app
 * database is never made from them: Hiram opens the one `postgres` database and never creates another)
 * and 10 MB is that WAL; a first start wrote them all (issue #35). With `wal_recycle` off the finished
 * segment is removed at the checkpoint instead of being renamed for reuse with its old bytes, and the next
 * one starts as zeros, which the pack does not store. Build and test set-up only (docs/decisions/054).
 */
export async function slimCluster(pgdata: string): Promise<void> {
  const pglite = await PGlite.create(pgdata, {
    startParams: [...PGlite.defaultStartParams, '-c', 'wal_recycle=off'],
  });
  try {
    // One statement each: several in one exec run as one transaction, which DROP DATABASE refuses. A
    // template database refuses to be dropped until it is no longer marked as one.
    for (const statement of [
      'alter database template0 is_template false',
      'drop database template0',
      'alter database template1 is_template false',
      'drop database template1',
      'checkpoint',
      'select pg_switch_wal()',
      'checkpoint',
    ]) {
      await pglite.exec(statement);
    }
  } finally {
    await pglite.close();
  }
}

/** Packs the data directory `source` into `templateDir` (replaced). Build time only (create-template.ts). */
export function packTemplate(source: string, templateDir: string): void {
  const manifest: Manifest = { dirs: [], files: [] };
  const contents: Buffer[] = [];
  const entries = readdirSync(source, { withFileTypes: true, recursive: true }).sort((a, b) =>
    join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)),
  );
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(source, path);
    if (entry.isDirectory()) manifest.dirs.push(name);
    else if (entry.isFile()) {
      const data = readFileSync(path);
      let stored = data.length;
      while (stored > 0 && data[stored - 1] === 0) stored--;
      manifest.files.push([name, data.length, stored]);
      contents.push(data.subarray(0, stored));
    } else throw new Error(`pglite template: ${name} is neither a file nor a folder`);
  }
  const head = Buffer.from(JSON.stringify(manifest));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(templateDir, { recursive: true });
  writeFileSync(
    join(templateDir, PACKED),
    gzipSync(Buffer.concat([length, head, ...contents]), { level: 9 }),
  );
}

/** How many files are written at once: enough to keep libuv's four threads busy, few descriptors. */
const WRITERS = 16;

async function unpack(file: string, target: string) {
  let packed: Buffer;
  try {
    packed = await promisify(gunzip)(await readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    // Said plainly: the image is built by root and run by uid 1000, so the build must leave it readable.
    throw new Error(
      `Cannot read the database template ${file} as uid ${process.getuid?.()}: it must be readable by the ` +
        `user the server runs as (scripts/build-server.mjs makes it so). ${(error as Error).message}`,
    );
  }
  const headLength = packed.readUInt32BE(0);
  const manifest = JSON.parse(packed.subarray(4, 4 + headLength).toString()) as Manifest;
  await mkdir(target, { mode: 0o700 });
  for (const dir of manifest.dirs) await mkdir(join(target, dir), { mode: 0o700, recursive: true });
  let at = 4 + headLength;
  const files = manifest.files.map(([name, size, stored]) => {
    const bytes = packed.subarray(at, at + stored);
    at += stored;
    return { path: join(target, name), size, bytes };
  });
  if (at !== packed.length) throw new Error(`pglite template ${file} is damaged`);
  // Written off the main thread, several at a time (issue #35): a first start's 1,100 small files cost
  // a fraction of the wall time they do one by one, and the server's modules load meanwhile.
  let next = 0;
  const writer = async () => {
    for (let f = files[next++]; f; f = files[next++]) {
      await writeFile(f.path, f.bytes, { mode: 0o600 });
      if (f.size > f.bytes.length) await truncate(f.path, f.size);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

/**
 * On a data directory without a database, puts the template's files in place (through a temporary name
 * and a rename, so a crash mid-way leaves no half database) and resolves true. The caller holds the data
 * directory's lock. A directory that has a database, or a missing template, is left alone.
 */
export async function seedFromTemplate(pgdata: string, templateDir: string): Promise<boolean> {
  const packed = join(templateDir, PACKED);
  if (!existsSync(packed)) return false;
  if (existsSync(pgdata)) {
    // Only an empty folder is replaced; anything else is PGlite's to open (or to initdb).
    if (readdirSync(pgdata).length > 0) return false;
    await rm(pgdata, { recursive: true });
  }
  const partial = `${pgdata}.partial`;
  await rm(partial, { recursive: true, force: true });
  await unpack(packed, partial);
  await rename(partial, pgdata);
  return true;
}
