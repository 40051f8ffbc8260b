import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** A stored file as read back: its bytes as a stream (never buffered whole), size and content type. */
export interface StoredFile {
  body: Readable;
  size: number;
  contentType: string;
}

/** One stored file as listed: its key and when it was last written. */
export interface ListedFile {
  key: string;
  modifiedAt: Date;
}

/**
 * Private file storage: local disk (`local-storage.ts`) or an S3-compatible bucket (`s3-storage.ts`), one
 * contract (`storage.test.ts` runs it against both). Keys are relative paths chosen by the server
 * ("applications/<id>/<random>.jpg"); the content type follows the key's extension. Nothing here is ever
 * served by URL: files reach a client only through the authorised file route.
 */
export interface FileStorage {
  /** Writes the whole file, replacing one with the same key; a reader never sees a partial file. */
  put(key: string, data: Buffer): Promise<void>;
  /** The file as a stream, or null when there is no file under the key. */
  get(key: string): Promise<StoredFile | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every file whose key starts with `prefix` (e.g. "applications/"), in no particular order, read page by
   * page as the caller iterates. Used by the orphan sweep (`sweep-orphans.ts`).
   */
  list(prefix: string): AsyncIterable<ListedFile>;
  /** Releases connections (S3); the app calls it when it closes. */
  close(): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9-]+(\/[a-zA-Z0-9._-]+)+$/;

/** Keys are server-made: a folder, then path segments; no `.`/`..` segment, no absolute or odd path. */
export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}

/** A random, unguessable file name with the given extension. */
export function randomFileName(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

const contentTypes: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** The content type a key's extension stands for (both backends store and return this one). */
export function contentTypeFor(key: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? '';
  return contentTypes[extension] ?? 'application/octet-stream';
}
