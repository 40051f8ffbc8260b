import { randomUUID } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplication } from '../test-support/seed';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { runOrphanSweep, sweepOrphanFiles } from './sweep-orphan-files';

/**
 * The orphan sweep (issue #15): files no committed row references are removed once they are over an hour
 * old; referenced files and young files (an upload in progress) stay. Local storage: a file is made "old"
 * by setting its modification time.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const HOUR = 60 * 60 * 1000;
const put = async (key: string, ageMs: number) => {
  await t.deps.storage.put(key, Buffer.from(key));
  const at = new Date(Date.now() - ageMs);
  await utimes(join(t.deps.config.dataDir, 'files', key), at, at);
};

describe('sweeping orphan files', () => {
  it('removes old unreferenced files and keeps referenced and young ones', async () => {
    const { user } = await t.signUpBorrower();
    const applicationId = await seedApplication(t.db, { borrowerId: user.id });
    const documents = await t.db
      .selectFrom('documents')
      .select('storage_key')
      .where('application_id', '=', applicationId)
      .execute();
    for (const { storage_key } of documents) await put(storage_key, 3 * HOUR);
    const complaintKey = `complaints/${randomUUID()}/picture.jpg`;
    await t.db
      .insertInto('complaints')
      .values({
        reference: sql<string>`'C-2026-' || lpad(nextval('complaint_reference_seq')::text, 6, '0')`,
        borrower_id: user.id,
        application_id: applicationId,
        category: 'payments',
        text: 'A complaint with a picture',
        picture_key: complaintKey,
        picture_content_type: 'image/jpeg',
      })
      .execute();
    await put(complaintKey, 3 * HOUR);

    const crashed = `applications/${randomUUID()}`;
    const oldOrphans = [
      `${crashed}/a.jpg`,
      `${crashed}/b.png`,
      `${crashed}/c.jpg.0a1b2c3d4e5f.tmp`,
      `applications/${applicationId}/extra.jpg`,
      `complaints/${randomUUID()}/orphan.jpg`,
    ];
    for (const key of oldOrphans) await put(key, HOUR + 60_000);
    const young = [`applications/${randomUUID()}/uploading.jpg`, `complaints/${randomUUID()}/uploading.jpg`];
    for (const key of young) await put(key, HOUR - 60_000);
    // A folder the sweep does not own is never touched, however old.
    await put('avatars/someone/old.jpg', 3 * HOUR);

    expect(await sweepOrphanFiles(t.deps, new Date())).toEqual({ removed: oldOrphans.length });

    for (const key of oldOrphans) expect(await t.deps.storage.exists(key), key).toBe(false);
    for (const { storage_key } of documents) expect(await t.deps.storage.exists(storage_key)).toBe(true);
    expect(await t.deps.storage.exists(complaintKey)).toBe(true);
    for (const key of young) expect(await t.deps.storage.exists(key), key).toBe(true);
    expect(await t.deps.storage.exists('avatars/someone/old.jpg')).toBe(true);

    // Judged against the given "now": two hours on, the young orphans are old enough; the rest still stay.
    expect(await sweepOrphanFiles(t.deps, new Date(Date.now() + 2 * HOUR))).toEqual({ removed: 2 });
    for (const key of young) expect(await t.deps.storage.exists(key)).toBe(false);
    for (const { storage_key } of documents) expect(await t.deps.storage.exists(storage_key)).toBe(true);
    expect(await t.deps.storage.exists(complaintKey)).toBe(true);
  });

  it('as a scheduled job it sweeps on the first run and then at most once an hour', async () => {
    const key = `applications/${randomUUID()}/a.jpg`;
    await put(key, 2 * HOUR);
    expect(await runOrphanSweep(t.deps)).toEqual({ removed: 1 });
    await put(key, 2 * HOUR);
    expect(await runOrphanSweep(t.deps)).toBeNull();
    expect(await t.deps.storage.exists(key)).toBe(true);
  });
});
