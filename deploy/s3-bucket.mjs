// The bucket step of compose.yaml, run once before the instances start, with the image's own S3 client:
// waits until the store answers, creates the bucket if it is missing, turns on versioning (a deleted or
// overwritten picture stays recoverable), and checks that an anonymous request is refused. Any S3-compatible
// service: S3_ENDPOINT, S3_BUCKET, S3_REGION and the standard AWS_* credentials, as the app reads them.
// S3_STANDIN=true (deploy/compose.standin.yaml only): the test stand-in (s3rver) has neither versioning nor
// access control, so those two are reported and skipped instead of failing.
import {
  CreateBucketCommand,
  GetBucketVersioningCommand,
  HeadBucketCommand,
  PutBucketVersioningCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const bucket = process.env.S3_BUCKET;
const endpoint = process.env.S3_ENDPOINT;
const standIn = process.env.S3_STANDIN === 'true';
if (!bucket || !endpoint) {
  console.error('s3-bucket: set S3_BUCKET and S3_ENDPOINT');
  process.exit(2);
}
const client = new S3Client({
  region: process.env.S3_REGION ?? 'us-east-1',
  endpoint,
  forcePathStyle: true,
  maxAttempts: 1,
});
const status = (error) => error?.$metadata?.httpStatusCode;

// The store may still be starting: connection errors are retried for a minute, any answer counts.
let exists;
for (let attempt = 1; exists === undefined; attempt++) {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    exists = true;
  } catch (error) {
    if (status(error) === 404) exists = false;
    else if (status(error) !== undefined && status(error) !== 503) throw error;
    else if (attempt >= 60) throw new Error(`s3-bucket: ${endpoint} did not answer: ${error.message}`);
    else await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
if (!exists) {
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  console.info(`s3-bucket: created ${bucket}`);
} else {
  console.info(`s3-bucket: ${bucket} exists`);
}

try {
  await client.send(
    new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
  );
  const { Status } = await client.send(new GetBucketVersioningCommand({ Bucket: bucket }));
  if (Status !== 'Enabled') throw new Error(`versioning reads back as ${Status ?? 'never set'}`);
  console.info(`s3-bucket: versioning enabled on ${bucket}`);
} catch (error) {
  if (!standIn) {
    console.error(`s3-bucket: cannot turn on versioning for ${bucket}: ${error.name}: ${error.message}`);
    process.exit(1);
  }
  console.warn(`s3-bucket: versioning skipped (the stand-in answered ${error.name})`);
}

// No signature: a private bucket refuses to list its objects.
const anonymous = await fetch(`${endpoint.replace(/\/$/, '')}/${bucket}?list-type=2`);
if (anonymous.status === 403) console.info(`s3-bucket: ${bucket} refuses anonymous requests`);
else if (standIn) console.warn(`s3-bucket: anonymous listing answered ${anonymous.status} (stand-in)`);
else {
  console.error(`s3-bucket: ${bucket} answers anonymous requests (${anonymous.status}); make it private`);
  process.exit(1);
}
