import { createIndexedDbFileStore } from './indexed-db-file-store';

/** A picture or the signature kept for the draft: the bytes and the name the borrower chose. */
export interface StoredFile {
  blob: Blob;
  name: string;
}

/**
 * Where the draft's files live between reloads. The browser uses IndexedDB (Blobs cannot go into
 * localStorage); tests and browsers without IndexedDB use the in-memory store.
 */
export interface FileStore {
  get(key: string): Promise<StoredFile | undefined>;
  put(key: string, file: StoredFile): Promise<void>;
  delete(key: string): Promise<void>;
  /** Removes every key that starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /** Removes every key that does not start with `prefix` (another user's files on a shared phone); null: all. */
  deleteAllBut(prefix: string | null): Promise<void>;
}

export function createMemoryFileStore(): FileStore & { keys(): string[] } {
  const files = new Map<string, StoredFile>();
  return {
    get: async (key) => files.get(key),
    put: async (key, file) => {
      files.set(key, file);
    },
    delete: async (key) => {
      files.delete(key);
    },
    deletePrefix: async (prefix) => {
      for (const key of [...files.keys()]) if (key.startsWith(prefix)) files.delete(key);
    },
    deleteAllBut: async (prefix) => {
      for (const key of [...files.keys()]) if (prefix === null || !key.startsWith(prefix)) files.delete(key);
    },
    keys: () => [...files.keys()],
  };
}

let activeStore: FileStore | null = null;

/** The app's FileStore: IndexedDB when the browser has it, else memory (pictures then last one page). */
export function draftFileStore(): FileStore {
  activeStore ??= typeof indexedDB === 'undefined' ? createMemoryFileStore() : createIndexedDbFileStore();
  return activeStore;
}

/** Tests swap in their own store (jsdom has no IndexedDB). */
export function setDraftFileStore(store: FileStore | null): void {
  activeStore = store;
}
