import type { FileStore, StoredFile } from './file-store';

const databaseName = 'hiram-drafts';
const storeName = 'files';

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** A tiny promise wrapper around one IndexedDB object store of `StoredFile`s by string key. */
export function createIndexedDbFileStore(factory: IDBFactory = indexedDB): FileStore {
  let opening: Promise<IDBDatabase> | null = null;
  const open = () => {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = factory.open(databaseName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    }).catch((error: unknown) => {
      opening = null; // try again next time (e.g. after the other tab closed)
      throw error;
    });
    return opening;
  };
  /**
   * Whether there can be anything to delete: a device that never kept a picture has no database, and opening
   * one to empty it would create it (every sign-in forgets other users' drafts, staff sign-ins too). Where
   * the browser cannot list its databases, open it and see.
   */
  const mayHoldFiles = async () => {
    if (opening !== null || typeof factory.databases !== 'function') return true;
    const known = await factory.databases().catch(() => null);
    return known === null || known.some((database) => database.name === databaseName);
  };
  const run = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) => {
    const db = await open();
    const transaction = db.transaction(storeName, mode);
    const result = promised(work(transaction.objectStore(storeName)));
    await done(transaction);
    return result;
  };
  return {
    get: (key) => run('readonly', (store) => store.get(key) as IDBRequest<StoredFile | undefined>),
    put: async (key, file) => {
      await run('readwrite', (store) => store.put(file, key));
    },
    delete: async (key) => {
      await run('readwrite', (store) => store.delete(key));
    },
    deletePrefix: async (prefix) => {
      if (!(await mayHoldFiles())) return;
      // Keys are '<user id>/<field>': '\uffff' sorts after every character a key uses.
      await run('readwrite', (store) => store.delete(IDBKeyRange.bound(prefix, `${prefix}\uffff`)));
    },
    deleteAllBut: async (prefix) => {
      if (!(await mayHoldFiles())) return;
      if (prefix === null) {
        await run('readwrite', (store) => store.clear());
        return;
      }
      await run('readwrite', (store) => store.delete(IDBKeyRange.upperBound(prefix, true)));
      await run('readwrite', (store) => store.delete(IDBKeyRange.lowerBound(`${prefix}\uffff`, true)));
    },
  };
}
