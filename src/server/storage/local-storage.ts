import { randomBytes } from 'node:crypto';
import { mkdir, open, opendir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { assertSafeKey, contentTypeFor, type FileStorage, type ListedFile, type StoredFile } from './storage';

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/**
 * Local disk under a root directory (STORAGE=local, `DATA_DIR/files`). Writes go to a temp file that is
 * renamed, so a crash leaves no torn file; folders are 0700 and files 0600.
 */
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
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    // Twice: a concurrent delete may remove the (then empty) folder between mkdir and the write.
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await writeFile(temp, data, { mode: 0o600, flag: 'wx' });
        break;
      } catch (error) {
        if (attempt >= 2 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    await rename(temp, path);
  }

  async get(key: string): Promise<StoredFile | null> {
    const path = this.pathFor(key);
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      // Size and stream come from the same open file, even if the key is replaced meanwhile.
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      return { body: handle.createReadStream(), size: info.size, contentType: contentTypeFor(key) };
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathFor(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathFor(key);
    await rm(path, { force: true });
    // Tidy an emptied folder ("applications/<id>"), never a top-level one other keys share.
    const folder = dirname(path);
    if (relative(this.root, folder).split(sep).length >= 2) await rmdir(folder).catch(() => {});
  }

  async *list(prefix: string): AsyncIterable<ListedFile> {
    yield* this.walk(this.root, prefix);
  }

  /** Depth first through the folders a key with the prefix can be in; files by their mtime. */
  private async *walk(folder: string, prefix: string): AsyncGenerator<ListedFile> {
    let dir: Awaited<ReturnType<typeof opendir>>;
    try {
      dir = await opendir(folder);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for await (const entry of dir) {
      const path = join(folder, entry.name);
      const key = relative(this.root, path).split(sep).join('/');
      if (entry.isDirectory()) {
        if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) yield* this.walk(path, prefix);
      } else if (entry.isFile() && key.startsWith(prefix)) {
        try {
          yield { key, modifiedAt: (await stat(path)).mtime };
        } catch (error) {
          if (!isMissing(error)) throw error; // deleted meanwhile
        }
      }
    }
  }

  async close(): Promise<void> {}
}

export function localStorageFor(dataDir: string): LocalDiskStorage {
  return new LocalDiskStorage(join(dataDir, 'files'));
}
