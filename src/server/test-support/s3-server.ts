import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { freePort } from './free-port';

type Middleware = (
  ctx: { method: string; path: string; query: Record<string, unknown>; app: object },
  next: () => Promise<void>,
) => Promise<void>;

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
  // s3rver signs a bucket-level request as "/<bucket>" while the SDK signs the "/<bucket>/" it sends, so
  // every ListObjectsV2 fails its signature check. Only for that request (a GET of the bucket itself), this
  // request's view of the server accepts the signature; every object request is still checked.
  (server as unknown as { middleware: Middleware[] }).middleware.unshift(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === `/${bucket}/` && 'list-type' in ctx.query) {
      ctx.app = Object.create(ctx.app, { allowMismatchedSignatures: { value: true } });
    }
    await next();
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  return {
    endpoint,
    bucket,
    region,
    // s3rver keeps "<key>._S3rver_object" under <directory>/<bucket> (read directly, independent of the
    // storage code under test).
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
