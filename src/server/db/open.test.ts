import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type OpenDatabase, openDatabase } from './open';

const IN_USE =
  /The data directory .* is in use by another Hiram process \(pid \d+\)\. Stop it first, or set DATA_DIR/;

describe('openDatabase (PGlite)', () => {
  // One data dir for all: creating one on disk (initdb) takes seconds, reopening it much less.
  describe('on a data directory', { timeout: 60_000 }, () => {
    let dataDir: string;
    const opened: OpenDatabase[] = [];
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'hiram-open-'));
      const database = await openDatabase({ kind: 'pglite', dataDir });
      await migrateToLatest(database.db);
      await database.close();
    }, 60_000);
    afterEach(async () => {
      for (const database of opened.splice(0)) await database.close();
      rmSync(join(dataDir, 'hiram.lock'), { force: true });
    });
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
    const open = async () => {
      const database = await openDatabase({ kind: 'pglite', dataDir });
      opened.push(database);
      return database;
    };
    const lockPath = () => join(dataDir, 'hiram.lock');

    it('holds a lock file with our pid while open, and a second open fails with a clear message', async () => {
      const first = await open();
      expect(readFileSync(lockPath(), 'utf8')).toBe(String(process.pid));
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(IN_USE);
      // The failed attempt did not take the lock away from the first.
      expect(readFileSync(lockPath(), 'utf8')).toBe(String(process.pid));
      await sql`select 1`.execute(first.db);
    });

    it('refuses while another live process holds the lock', async () => {
      let holder: ChildProcess | undefined;
      try {
        holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
        writeFileSync(lockPath(), String(holder.pid));
        await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
          new RegExp(`in use by another Hiram process \\(pid ${holder.pid}\\)`),
        );
        expect(readFileSync(lockPath(), 'utf8')).toBe(String(holder.pid));
      } finally {
        holder?.kill();
      }
    });

    it('takes over a stale lock left by a dead process', async () => {
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(lockPath(), String(dead));
      const database = await open();
      expect(readFileSync(lockPath(), 'utf8')).toBe(String(process.pid));
      await sql`select 1`.execute(database.db);
    });

    it('takes over an empty or garbled lock file', async () => {
      writeFileSync(lockPath(), '');
      await (await open()).close();
      writeFileSync(lockPath(), 'not a pid');
      await open();
      expect(readFileSync(lockPath(), 'utf8')).toBe(String(process.pid));
    });

    it('closing releases the lock, and the data survives a reopen', async () => {
      const first = await open();
      await first.db
        .insertInto('users')
        .values({ username: 'keeper', phone: null, role: 'admin', password_hash: '$argon2id$x' })
        .execute();
      await first.close();
      expect(existsSync(lockPath())).toBe(false);

      const second = await open();
      const rows = await second.db.selectFrom('users').select('username').execute();
      expect(rows).toEqual([{ username: 'keeper' }]);
    });

    it('parses int8 (counts, sums) as JS numbers, refuses unsafe ones, keeps numeric exact', async () => {
      const { db } = await open();
      const { rows } = await sql<Record<string, unknown>>`
        select count(*) as c, 9007199254740991::int8 as max, (-42)::int8 as neg,
               12345678901234567890.12::numeric as big, 7::int4 as small`.execute(db);
      expect(rows[0]).toEqual({
        c: 1,
        max: Number.MAX_SAFE_INTEGER,
        neg: -42,
        big: '12345678901234567890.12',
        small: 7,
      });
      // Beyond 2^53 an int8 is an error, not a silently rounded number; the connection stays usable.
      await expect(sql`select 9007199254740993::int8 as n`.execute(db)).rejects.toThrow(/safe integer/);
      expect((await sql`select 1::int8 as n`.execute(db)).rows).toEqual([{ n: 1 }]);
    });
  });
});
