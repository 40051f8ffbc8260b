import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app';

/** The same behaviour on PGlite and PostgreSQL: what the app relies on from its database layer. */
describe('database layer (both backends)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('int8 is a number, numeric an exact string, timestamptz a Date', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select count(*) as c, 9007199254740991::int8 as max, 12345678901234567890.12::numeric as big,
             now() as ts, 7::int4 as small`.execute(t.db);
    expect(rows[0]).toEqual({
      c: 1,
      max: Number.MAX_SAFE_INTEGER,
      big: '12345678901234567890.12',
      ts: expect.any(Date),
      small: 7,
    });
  });

  it("takes the shared buffers it is given (the API tests' PGlite, 16MB)", async () => {
    const { rows } = await sql<{ size: string }>`select current_setting('shared_buffers') as size`.execute(
      t.db,
    );
    // PostgreSQL's own setting is the cluster's; only PGlite is started by the tests.
    if (t.kind === 'pglite') expect(rows[0]!.size).toBe('16MB');
    else expect(rows[0]!.size).toMatch(/^\d+[kMG]B$/);
  });

  it('an int8 beyond the safe integer range is an error, not a silent rounding', async () => {
    await expect(sql`select 9007199254740993::int8 as n`.execute(t.db)).rejects.toThrow(/safe integer/);
    expect((await sql`select 1 as n`.execute(t.db)).rows).toEqual([{ n: 1 }]);
  });

  it('a commit of a transaction that an error aborted fails instead of silently rolling back', async () => {
    const phone = t.nextPhone();
    const { user } = await t.createUser({ role: 'borrower' });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ avatar: 3 }).where('id', '=', user.id).execute();
        // A caught error leaves a PostgreSQL transaction aborted; committing it must not look like success.
        await trx
          .insertInto('users')
          .values({ phone: user.phone, role: 'borrower', password_hash: '$argon2id$x' })
          .execute()
          .catch(() => {});
        return 'committed?';
      }),
    ).rejects.toThrow();
    const row = await t.db
      .selectFrom('users')
      .select('avatar')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.avatar).toBe(1);
    // The connection (PGlite's only one) is usable afterwards.
    await t.createUser({ role: 'borrower', phone });
  });

  it('honours a read-only transaction', async () => {
    await expect(
      t.db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) => trx.deleteFrom('users').execute()),
    ).rejects.toThrow(/read-only/);
  });

  it('unique and check violations carry the SQLSTATE and the constraint name', async () => {
    const { user } = await t.createUser({ role: 'borrower' });
    await expect(
      t.db
        .insertInto('users')
        .values({ phone: user.phone, role: 'borrower', password_hash: '$argon2id$x' })
        .execute(),
    ).rejects.toMatchObject({ code: '23505', constraint: 'users_phone_key' });
    await expect(
      t.db
        .insertInto('users')
        .values({ phone: '12', role: 'borrower', password_hash: '$argon2id$x' })
        .execute(),
    ).rejects.toMatchObject({ code: '23514', constraint: 'users_phone_digits' });
  });

  it('concurrent transactions on one row do not lose updates', async () => {
    const { user } = await t.createUser({ role: 'borrower' });
    await Promise.all(
      Array.from({ length: 4 }, () =>
        t.db.transaction().execute(async (trx) => {
          const { avatar } = await trx
            .selectFrom('users')
            .select('avatar')
            .where('id', '=', user.id)
            .forUpdate()
            .executeTakeFirstOrThrow();
          await trx
            .updateTable('users')
            .set({ avatar: avatar + 1 })
            .where('id', '=', user.id)
            .execute();
        }),
      ),
    );
    const row = await t.db
      .selectFrom('users')
      .select('avatar')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.avatar).toBe(5);
  });
});
