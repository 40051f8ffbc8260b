import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { freePort } from './free-port';

/** s3rver's one built-in account (it checks every request's SigV4 signature against it). */
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  region: string;
  /** Every key in the bucket (to see what a test left behind), read from the server's own folder. */
  keys(): string[];
  close(): Promise<void>;
}

/**
 * An S3-compatible server for the tests (s3rver, the maintained @20minutes fork), on a free port of
 * 127.0.0.1 with one empty bucket in a temp folder. Buckets are addressed by path (S3_FORCE_PATH_STYLE).
 */
export async function startS3TestServer(bucket = 'hiram-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'hiram-s3-'));
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    // s3rver keeps "<key>._S3rver_object" under <directory>/<bucket>. (Listing through the API is no
    // option: s3rver miscomputes the signature of bucket-level requests such as ListObjectsV2.)
    keys() {
      return readdirSync(join(directory, bucket), { recursive: true })
        .map(String)
        .filter((path) => path.endsWith('._S3rver_object'))
        .map((path) => path.slice(0, -'._S3rver_object'.length))
        .sort();
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
