import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Private file storage. Keys are relative paths chosen by the server ("applications/<id>/<random>.jpg");
 * nothing here is ever served by URL: files reach a client only through the authorised file route.
 */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Deletes every file under a prefix (used to undo a failed submission). */
  deletePrefix(prefix: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9-]+(\/[a-zA-Z0-9._-]+)+$/;

export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}

/** A random, unguessable file name with the given extension. */
export function randomFileName(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

/** Local disk under a root directory; writes go to a temp file and are renamed, so a crash leaves no torn file. */
export class LocalDiskStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathFor(key: string): string {
    assertSafeKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.pathFor(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, data, { mode: 0o600, flag: 'wx' });
    await rename(temp, path);
  }

  async read(key: string): Promise<Readable> {
    const path = this.pathFor(key);
    await stat(path);
    return createReadStream(path);
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.pathFor(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathFor(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const path = resolve(this.root, prefix);
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage prefix escapes the root: ${prefix}`);
    await rm(path, { recursive: true, force: true });
  }
}

export function localStorageFor(dataDir: string): LocalDiskStorage {
  return new LocalDiskStorage(join(dataDir, 'files'));
}
