import type { Config } from '../config';
import { localStorageFor } from './local-storage';
import { S3Storage } from './s3-storage';
import type { FileStorage } from './storage';

/** The file storage the configuration names (STORAGE=local or s3). */
export function storageFor(config: Pick<Config, 'dataDir' | 'storage'>): FileStorage {
  const { storage } = config;
  if (storage.kind === 's3') {
    return new S3Storage({
      bucket: storage.bucket,
      region: storage.region,
      endpoint: storage.endpoint,
      forcePathStyle: storage.forcePathStyle,
    });
  }
  return localStorageFor(config.dataDir);
}
