import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

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

function unpack(file: string, target: string) {
  let packed: Buffer;
  try {
    packed = gunzipSync(readFileSync(file));
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
  mkdirSync(target, { mode: 0o700 });
  for (const dir of manifest.dirs) mkdirSync(join(target, dir), { mode: 0o700, recursive: true });
  let at = 4 + headLength;
  for (const [name, size, stored] of manifest.files) {
    const path = join(target, name);
    writeFileSync(path, packed.subarray(at, at + stored), { mode: 0o600 });
    if (size > stored) truncateSync(path, size);
    at += stored;
  }
  if (at !== packed.length) throw new Error(`pglite template ${file} is damaged`);
}

/**
 * On a data directory without a database, puts the template's files in place (through a temporary name
 * and a rename, so a crash mid-way leaves no half database) and returns true. The caller holds the data
 * directory's lock. A directory that has a database, or a missing template, is left alone.
 */
export function seedFromTemplate(pgdata: string, templateDir: string): boolean {
  const packed = join(templateDir, PACKED);
  if (!existsSync(packed)) return false;
  if (existsSync(pgdata)) {
    // Only an empty folder is replaced; anything else is PGlite's to open (or to initdb).
    if (readdirSync(pgdata).length > 0) return false;
    rmSync(pgdata, { recursive: true });
  }
  const partial = `${pgdata}.partial`;
  rmSync(partial, { recursive: true, force: true });
  unpack(packed, partial);
  renameSync(partial, pgdata);
  return true;
}
