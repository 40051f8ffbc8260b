import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
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
    const lockPid = () => JSON.parse(readFileSync(lockPath(), 'utf8')).pid;
    /** This machine's start time of a process, as the lock records it (Linux). */
    const startOf = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    };
    const aged = () => utimesSync(lockPath(), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

    it('holds a lock file with our pid while open, and a second open fails with a clear message', async () => {
      const first = await open();
      expect(lockPid()).toBe(process.pid);
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(IN_USE);
      // The failed attempt did not take the lock away from the first.
      expect(lockPid()).toBe(process.pid);
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
      expect(lockPid()).toBe(process.pid);
      await sql`select 1`.execute(database.db);
    });

    it('takes over a lock whose pid now belongs to another program (started at another time)', async () => {
      let other: ChildProcess | undefined;
      try {
        other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        writeFileSync(lockPath(), JSON.stringify({ pid: other.pid, host: hostname(), started: '1' }));
        const database = await open();
        expect(lockPid()).toBe(process.pid);
        await sql`select 1`.execute(database.db);
      } finally {
        other?.kill();
      }
    });

    it('refuses a lock it cannot prove stale, and says what to do', async () => {
      let holder: ChildProcess | undefined;
      try {
        holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
        await new Promise((resolve) => setTimeout(resolve, 200));
        const pid = holder.pid!;
        writeFileSync(lockPath(), JSON.stringify({ pid, host: hostname(), started: startOf(pid) }));
        await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
          /Stop it first, or set DATA_DIR to another directory\. If no Hiram process uses it any more, delete .*hiram\.lock and start again\./,
        );
        // Another machine's lock on a shared disk: its process cannot be seen from here.
        writeFileSync(lockPath(), JSON.stringify({ pid: 1, host: 'another-host', started: null }));
        await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(/pid 1 on another-host/);
      } finally {
        holder?.kill();
      }
    });

    it('takes over a lock holding a garbage pid', async () => {
      for (const garbage of [
        '-5',
        '0',
        '99999999999999999999',
        '{"pid":"x","host":"h"}',
        '{"pid":1.5}',
        '[]',
      ]) {
        writeFileSync(lockPath(), garbage);
        aged();
        await (await open()).close();
      }
    });

    it('takes over an empty or garbled lock file', async () => {
      writeFileSync(lockPath(), '');
      await (await open()).close();
      writeFileSync(lockPath(), 'not a pid');
      aged();
      await open();
      expect(lockPid()).toBe(process.pid);
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
