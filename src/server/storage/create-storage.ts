import type { Config } from '../config';
import { localStorageFor } from './local-storage';
import type { S3StorageOptions } from './s3-storage';
import type { FileStorage } from './storage';

/** The file storage the configuration names (STORAGE=local or s3). */
export function storageFor(config: Pick<Config, 'dataDir' | 'storage'>): FileStorage {
  const { storage } = config;
  if (storage.kind === 's3') {
    return lazyS3Storage({
      bucket: storage.bucket,
      region: storage.region,
      endpoint: storage.endpoint,
      forcePathStyle: storage.forcePathStyle,
    });
  }
  return localStorageFor(config.dataDir);
}

/**
 * The S3 store, with the AWS SDK (a fifth of the server's start-up when loaded eagerly, issue #35) loaded
 * when a file is first read or written rather than before the server can answer.
 */
export function lazyS3Storage(options: S3StorageOptions): FileStorage {
  let loaded: Promise<FileStorage> | undefined;
  const store = () => {
    loaded ??= import('./s3-storage').then(({ S3Storage }) => new S3Storage(options));
    return loaded;
  };
  return {
    put: async (key, data) => (await store()).put(key, data),
    get: async (key) => (await store()).get(key),
    exists: async (key) => (await store()).exists(key),
    delete: async (key) => (await store()).delete(key),
    async *list(prefix) {
      yield* (await store()).list(prefix);
    },
    // Nothing to release when no file was ever touched.
    close: async () => (loaded ? (await loaded).close() : undefined),
  };
}
