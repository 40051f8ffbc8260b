import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applicationFields } from '../test-support/application-form';
import {
  jpegWithGps,
  type MultipartFile,
  multipartBody,
  pngPhoto,
  signaturePng,
} from '../test-support/images';
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3TestServer } from '../test-support/s3-server';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';
import { S3Storage } from './s3-storage';

/**
 * The app with STORAGE=s3 end to end, against an S3-compatible server the test starts on a free port. The
 * app builds its storage from the configuration and finds its credentials where a deployment puts them:
 * the standard AWS variables.
 */
let s3: S3TestServer;
let t: TestApp;
let photo: Buffer;
let png: Buffer;
let signature: Buffer;

beforeAll(async () => {
  s3 = await startS3TestServer();
  vi.stubEnv('AWS_ACCESS_KEY_ID', S3_TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', S3_TEST_CREDENTIALS.secretAccessKey);
  t = await createTestApp({
    config: {
      storage: {
        kind: 's3',
        bucket: s3.bucket,
        region: s3.region,
        endpoint: s3.endpoint,
        forcePathStyle: true,
      },
    },
  });
  [photo, png, signature] = await Promise.all([jpegWithGps(), pngPhoto(), signaturePng()]);
});
afterAll(async () => {
  await t?.close();
  await s3?.close().catch(() => {});
  vi.unstubAllEnvs();
});

async function borrowerWithQuote(): Promise<{ agent: Agent; phone: string; userId: string; sha: string }> {
  const { phone, password, user } = await t.signUpBorrower();
  const agent = await t.loginAs(phone, password);
  const quote = await agent.post('/api/applications/quote', { amount: 100000, termMonths: 12 });
  expect(quote.status).toBe(200);
  return { agent, phone, userId: user.id, sha: quote.body.disclosureSha256 };
}

function submit(agent: Agent, phone: string, sha: string, fullName = 'Maria Santos') {
  const fields = applicationFields(phone, { fullName, disclosureSha256: sha });
  const files: MultipartFile[] = [
    { name: 'idFront', filename: 'front.jpg', contentType: 'image/jpeg', data: photo },
    { name: 'idBack', filename: 'back.png', contentType: 'image/png', data: png },
    { name: 'selfie', filename: 'selfie.jpg', contentType: 'image/jpeg', data: photo },
    { name: 'signature', filename: 'signature.png', contentType: 'image/png', data: signature },
  ];
  const { payload, contentType } = multipartBody(fields, files);
  return agent.request('POST', '/api/applications', {
    raw: payload,
    headers: { 'content-type': contentType },
  });
}

/** The file route's raw bytes (the agent reads bodies as text). */
async function download(agent: Agent, documentId: string) {
  const cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return t.app.inject({ method: 'GET', url: `/api/files/${documentId}`, headers: { cookie } });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('STORAGE=s3, end to end', () => {
  let documents: { id: string; storage_key: string; sha256: string; size: number; content_type: string }[];

  it('stores the pictures of a submitted application in the bucket, not on local disk', async () => {
    const { agent, phone, userId, sha } = await borrowerWithQuote();
    const keysBefore = s3.keys();
    const response = await submit(agent, phone, sha);
    expect(response.status).toBe(201);

    documents = await t.db
      .selectFrom('documents')
      .select(['id', 'storage_key', 'sha256', 'size', 'content_type'])
      .where('owner_id', '=', userId)
      .execute();
    expect(documents).toHaveLength(4);
    const added = s3.keys().filter((key) => !keysBefore.includes(key));
    expect(added).toEqual(documents.map((d) => d.storage_key).sort());
    expect(existsSync(join(t.deps.config.dataDir, 'files'))).toBe(false);
  });

  it('streams a picture from the bucket to staff and to its owner, and to nobody else', async () => {
    expect(documents).toBeDefined();
    const officer = await t.signInStaff('officer');
    for (const document of documents) {
      const response = await download(officer, document.id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(document.content_type);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(Number(response.headers['content-length'])).toBe(document.size);
      expect(sha256(response.rawPayload)).toBe(document.sha256);
    }
    const stranger = await borrowerWithQuote();
    expect((await download(stranger.agent, documents[0]!.id)).statusCode).toBe(404);
  });

  it('a document whose object is gone is "not found"', async () => {
    const { agent, phone, userId, sha } = await borrowerWithQuote();
    expect((await submit(agent, phone, sha)).status).toBe(201);
    const document = await t.db
      .selectFrom('documents')
      .select(['id', 'storage_key'])
      .where('owner_id', '=', userId)
      .executeTakeFirstOrThrow();
    const direct = new S3Storage({
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: S3_TEST_CREDENTIALS,
    });
    await direct.delete(document.storage_key);
    await direct.close();
    const response = await download(agent, document.id);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it('a submission whose database write fails leaves no object in the bucket', async () => {
    const { agent, phone, userId, sha } = await borrowerWithQuote();
    const keysBefore = s3.keys();
    await sql`alter table applications add constraint test_refuse check (full_name <> 'Refuse Me')`.execute(
      t.db,
    );
    try {
      const response = await submit(agent, phone, sha, 'Refuse Me');
      expect(response.status).toBe(500);
    } finally {
      await sql`alter table applications drop constraint test_refuse`.execute(t.db);
    }
    expect(s3.keys()).toEqual(keysBefore);
    const rows = await t.db.selectFrom('documents').select('id').where('owner_id', '=', userId).execute();
    expect(rows).toEqual([]);
  });

  it('an unreachable store is a server error, not "not found"', async () => {
    expect(documents).toBeDefined();
    const admin = await t.signInStaff('admin');
    await s3.close();
    const response = await download(admin, documents[0]!.id);
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('INTERNAL');
  });
});
