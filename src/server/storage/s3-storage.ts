import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { assertSafeKey, contentTypeFor, type FileStorage, type ListedFile, type StoredFile } from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Any S3-compatible service (MinIO, Cloudflare R2, Garage…); unset: AWS S3 itself. */
  endpoint?: string | undefined;
  /** Path-style URLs (`endpoint/bucket/key`), as MinIO and Garage need without bucket DNS names. */
  forcePathStyle: boolean;
  /**
   * Tests only. Deployments leave this out: the SDK's default chain reads the standard AWS variables
   * (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE…) or an instance role.
   */
  credentials?: S3ClientConfig['credentials'];
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Files in one private bucket through the official AWS SDK v3. Objects are written without any ACL (the
 * bucket's own private default applies) and no URL to them is ever made: reads go through the app's
 * authorised file route, streamed from the GetObject response.
 *
 * Uploads are whole buffers (pictures are re-encoded in memory anyway, at most a few MB), so the SDK's
 * default integrity checksum travels as a plain `x-amz-checksum-crc32` header, which every S3-compatible
 * service tested accepts; a streamed upload would use `aws-chunked` trailers, which several do not.
 */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      // A store that stops answering fails the request (and the SDK retries) instead of hanging it:
      // 5 s to connect, 30 s without a byte on an open connection.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: data,
        ContentLength: data.length,
        ContentType: contentTypeFor(key),
      }),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    assertSafeKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body || object.ContentLength === undefined) {
        throw new Error(`S3 answered GetObject ${key} without a body or length`);
      }
      return {
        // In Node the body is the HTTP response itself (a Readable): the bytes flow through as they come.
        body: object.Body as Readable,
        size: object.ContentLength,
        contentType: object.ContentType ?? contentTypeFor(key),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix: string): AsyncIterable<ListedFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && object.LastModified) yield { key: object.Key, modifiedAt: object.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
