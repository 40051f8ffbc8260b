import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_TEST_CREDENTIALS, type S3TestServer, startS3TestServer } from '../test-support/s3-server';
import { lazyS3Storage } from './create-storage';
import { LocalDiskStorage } from './local-storage';
import { S3Storage, type S3StorageOptions } from './s3-storage';
import { contentTypeFor, type FileStorage } from './storage';

interface Backend {
  name: string;
  start(): Promise<{ storage: FileStorage; stop(): Promise<void> }>;
}

/** A fresh s3rver and a store made by `open` on it; stopping closes both. */
async function onS3TestServer(open: (options: S3StorageOptions) => FileStorage) {
  const server: S3TestServer = await startS3TestServer();
  const storage = open({
    bucket: server.bucket,
    region: server.region,
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: S3_TEST_CREDENTIALS,
  });
  return {
    storage,
    stop: async () => {
      await storage.close();
      await server.close();
    },
  };
}

const backends: Backend[] = [
  {
    name: 'local disk',
    async start() {
      const root = mkdtempSync(join(tmpdir(), 'hiram-storage-'));
      const storage = new LocalDiskStorage(join(root, 'files'));
      return { storage, stop: async () => rmSync(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 'S3 (s3rver)',
    start: () => onS3TestServer((options) => new S3Storage(options)),
  },
  {
    // What the app uses for STORAGE=s3: the same store behind a wrapper that loads the SDK on first use.
    name: 'S3 loaded on first use (s3rver)',
    start: () => onS3TestServer(lazyS3Storage),
  },
];

async function readAll(body: Readable): Promise<{ bytes: Buffer; chunks: number }> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return { bytes: Buffer.concat(chunks), chunks: chunks.length };
}

let serial = 0;
const newKey = (extension = 'jpg') =>
  `applications/${randomBytes(8).toString('hex')}/${++serial}.${extension}`;

const unsafeKeys = [
  '../outside.jpg',
  'applications/../../outside.jpg',
  'applications/x/../../../outside.jpg',
  '/etc/passwd',
  'applications//x.jpg',
  'applications/./x.jpg',
  'applications/..',
  'applications\\..\\x.jpg',
  'applications/x y.jpg',
  'applications/%2e%2e/x.jpg',
  'applications',
  '',
];

describe.each(backends)('file storage contract: $name', (backend) => {
  let storage: FileStorage;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, stop } = await backend.start());
  });
  afterAll(() => stop?.());

  it('reads back what was put: the same bytes, its size and the content type of its extension', async () => {
    const key = newKey('png');
    const data = randomBytes(1000);
    await storage.put(key, data);
    const file = await storage.get(key);
    expect(file).not.toBeNull();
    expect(file!.size).toBe(1000);
    expect(file!.contentType).toBe('image/png');
    expect((await readAll(file!.body)).bytes.equals(data)).toBe(true);

    for (const [extension, type] of [
      ['jpg', 'image/jpeg'],
      ['webp', 'image/webp'],
      ['bin', 'application/octet-stream'],
    ] as const) {
      const other = newKey(extension);
      await storage.put(other, Buffer.from('x'));
      const got = await storage.get(other);
      expect(got?.contentType).toBe(type);
      await readAll(got!.body);
    }
  });

  it('streams a large file in pieces rather than handing over one buffer', async () => {
    const key = newKey();
    const data = randomBytes(3 * 1024 * 1024 + 17);
    await storage.put(key, data);
    const file = await storage.get(key);
    expect(file!.body).toBeInstanceOf(Readable);
    expect(file!.size).toBe(data.length);
    const { bytes, chunks } = await readAll(file!.body);
    expect(chunks).toBeGreaterThan(1);
    expect(bytes.equals(data)).toBe(true);
  });

  it('an empty file is a file', async () => {
    const key = newKey();
    await storage.put(key, Buffer.alloc(0));
    expect(await storage.exists(key)).toBe(true);
    const file = await storage.get(key);
    expect(file!.size).toBe(0);
    expect((await readAll(file!.body)).bytes.length).toBe(0);
  });

  it('says whether a key exists', async () => {
    const key = newKey();
    expect(await storage.exists(key)).toBe(false);
    await storage.put(key, Buffer.from('present'));
    expect(await storage.exists(key)).toBe(true);
  });

  it('a missing key reads as null and does not exist; deleting it is no error', async () => {
    const key = newKey();
    expect(await storage.get(key)).toBeNull();
    expect(await storage.exists(key)).toBe(false);
    await expect(storage.delete(key)).resolves.toBeUndefined();
    // Nor in a folder that never existed, nor where a file stands in for a folder.
    const file = newKey();
    await storage.put(file, Buffer.from('a file'));
    expect(await storage.get(`${file}/inside.jpg`)).toBeNull();
    expect(await storage.exists(`${file}/inside.jpg`)).toBe(false);
  });

  it('put replaces a file under the same key', async () => {
    const key = newKey();
    await storage.put(key, Buffer.from('first version'));
    await storage.put(key, Buffer.from('second'));
    const file = await storage.get(key);
    expect(file!.size).toBe(6);
    expect((await readAll(file!.body)).bytes.toString()).toBe('second');
  });

  it('delete removes the file and leaves its neighbours', async () => {
    const folder = `applications/${randomBytes(8).toString('hex')}`;
    await storage.put(`${folder}/a.jpg`, Buffer.from('a'));
    await storage.put(`${folder}/b.jpg`, Buffer.from('b'));
    await storage.delete(`${folder}/a.jpg`);
    expect(await storage.get(`${folder}/a.jpg`)).toBeNull();
    expect(await storage.exists(`${folder}/a.jpg`)).toBe(false);
    expect(await storage.exists(`${folder}/b.jpg`)).toBe(true);
    await storage.delete(`${folder}/b.jpg`);
    expect(await storage.exists(`${folder}/b.jpg`)).toBe(false);
    // The folder can be written again after it was emptied.
    await storage.put(`${folder}/c.jpg`, Buffer.from('c'));
    expect(await storage.exists(`${folder}/c.jpg`)).toBe(true);
  });

  it('parallel writes into one folder all land', async () => {
    const folder = `applications/${randomBytes(8).toString('hex')}`;
    const keys = Array.from({ length: 8 }, (_, i) => `${folder}/${i}.jpg`);
    await Promise.all(keys.map((key, i) => storage.put(key, Buffer.from(`file ${i}`))));
    for (const [i, key] of keys.entries()) {
      expect((await readAll((await storage.get(key))!.body)).bytes.toString()).toBe(`file ${i}`);
    }
  });

  it('lists the files under a prefix with their modification time', async () => {
    const folder = `applications/${randomBytes(8).toString('hex')}`;
    const keys = Array.from({ length: 3 }, (_, i) => `${folder}/${i}.jpg`);
    const before = Date.now() - 60_000;
    for (const key of keys) await storage.put(key, Buffer.from(key));
    await storage.put(`complaints/${randomBytes(8).toString('hex')}/other.jpg`, Buffer.from('x'));
    const listed = [];
    for await (const file of storage.list(`${folder}/`)) listed.push(file);
    expect(listed.map((f) => f.key).sort()).toEqual(keys);
    for (const file of listed) {
      expect(file.modifiedAt).toBeInstanceOf(Date);
      expect(file.modifiedAt.getTime()).toBeGreaterThan(before);
      expect(file.modifiedAt.getTime()).toBeLessThan(Date.now() + 60_000);
    }
    // A whole folder: every key under it, none from elsewhere; an unknown prefix lists nothing.
    const all = [];
    for await (const file of storage.list('applications/')) all.push(file.key);
    expect(all).toEqual(expect.arrayContaining(keys));
    expect(all.every((key) => key.startsWith('applications/'))).toBe(true);
    const none = [];
    for await (const file of storage.list('nothing-here/')) none.push(file);
    expect(none).toEqual([]);
    await storage.delete(keys[0]!);
    const after = [];
    for await (const file of storage.list(`${folder}/`)) after.push(file.key);
    expect(after.sort()).toEqual(keys.slice(1));
  });

  it.each(unsafeKeys)('refuses the key %j for every operation', async (key) => {
    await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.get(key)).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.exists(key)).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.delete(key)).rejects.toThrow(/Unsafe storage key/);
  });
});

describe('local disk storage', () => {
  it('never reaches outside its root, and tidies a folder its last file left', async () => {
    const base = mkdtempSync(join(tmpdir(), 'hiram-storage-'));
    try {
      const storage = new LocalDiskStorage(join(base, 'files'));
      writeFileSync(join(base, 'outside.jpg'), 'not yours');
      await expect(storage.get('../outside.jpg')).rejects.toThrow();
      await expect(storage.delete('applications/../../outside.jpg')).rejects.toThrow();
      expect(existsSync(join(base, 'outside.jpg'))).toBe(true);

      await storage.put('applications/one/a.jpg', Buffer.from('a'));
      await storage.put('applications/two/b.jpg', Buffer.from('b'));
      await storage.delete('applications/one/a.jpg');
      expect(readdirSync(join(base, 'files', 'applications'))).toEqual(['two']);
      // Nothing but the file itself: no temp files left from the write.
      expect(readdirSync(join(base, 'files', 'applications', 'two'))).toEqual(['b.jpg']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('contentTypeFor', () => {
  it('follows the extension, case-insensitively, and falls back to bytes', () => {
    expect(contentTypeFor('applications/x/a.JPG')).toBe('image/jpeg');
    expect(contentTypeFor('applications/x/a.jpeg')).toBe('image/jpeg');
    expect(contentTypeFor('applications/x/a.png')).toBe('image/png');
    expect(contentTypeFor('applications/x/a')).toBe('application/octet-stream');
  });
});
