// The S3 stand-in for deploy/compose.standin.yaml: s3rver (the S3 fake the project's tests use) on :7070,
// its data under /data, no bucket made in advance (compose.yaml's bucket step makes it). Runs in the
// local/s3-standin image, which has @20minutes/s3rver installed globally.
const S3rver = require('/usr/local/lib/node_modules/@20minutes/s3rver');

const server = new S3rver({ address: '0.0.0.0', port: 7070, directory: '/data', vhostBuckets: false });
// s3rver checks a bucket-level request's signature against "/<bucket>" while the AWS SDK signs the
// "/<bucket>/" it sends (src/server/test-support/s3-server.ts). Only for bucket-level requests (HeadBucket,
// CreateBucket, listings; with or without the slash) is a mismatch let through; object requests are checked.
server.middleware.unshift(async (ctx, next) => {
  if (/^\/[^/]+\/?$/.test(ctx.path))
    ctx.app = Object.create(ctx.app, { allowMismatchedSignatures: { value: true } });
  await next();
});
server.run().then(() => console.info('s3rver on :7070'));
for (const signal of ['SIGTERM', 'SIGINT'])
  process.on(signal, () => server.close().then(() => process.exit(0)));
