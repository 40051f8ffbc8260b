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
    keys: () => [...files.keys()],
  };
}
