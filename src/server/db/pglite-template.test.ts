import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packTemplate, seedFromTemplate, slimCluster } from './pglite-template';

let root: string;
let template: string;
let pgdata: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hiram-template-'));
  const cluster = join(root, 'cluster');
  mkdirSync(join(cluster, 'base', 'empty'), { recursive: true });
  writeFileSync(join(cluster, 'PG_VERSION'), '17\n');
  writeFileSync(join(cluster, 'base', 'table'), 'migrated');
  writeFileSync(join(cluster, 'base', 'zeros'), Buffer.alloc(8192));
  template = join(root, 'template');
  packTemplate(cluster, template);
  pgdata = join(root, 'data', 'pgdata');
  mkdirSync(join(root, 'data'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('seedFromTemplate', () => {
  it('unpacks the template into a data directory that has no database yet, private to its user', async () => {
    expect(await seedFromTemplate(pgdata, template)).toBe(true);
    expect(readFileSync(join(pgdata, 'base', 'table'), 'utf8')).toBe('migrated');
    expect(readFileSync(join(pgdata, 'base', 'zeros'))).toEqual(Buffer.alloc(8192));
    expect(statSync(join(pgdata, 'base', 'empty')).isDirectory()).toBe(true);
    expect(existsSync(`${pgdata}.partial`)).toBe(false);
    expect(statSync(pgdata).mode & 0o777).toBe(0o700);
    expect(statSync(join(pgdata, 'base')).mode & 0o777).toBe(0o700);
    expect(statSync(join(pgdata, 'PG_VERSION')).mode & 0o777).toBe(0o600);
  });

  it('writes every file of a many-file cluster, each with its own bytes and size', async () => {
    const cluster = join(root, 'big');
    mkdirSync(join(cluster, 'base', '5'), { recursive: true });
    // More files than are written at once, of different sizes, some ending in zeros (stored shorter).
    const files = Array.from({ length: 60 }, (_, i) => {
      const bytes = Buffer.alloc(1 + ((i * 937) % 3000));
      bytes.write(`file ${i}`);
      return { name: join('base', '5', String(1000 + i)), bytes };
    });
    for (const { name, bytes } of files) writeFileSync(join(cluster, name), bytes);
    const big = join(root, 'big-template');
    packTemplate(cluster, big);
    expect(await seedFromTemplate(pgdata, big)).toBe(true);
    expect(readdirSync(join(pgdata, 'base', '5'))).toHaveLength(files.length);
    for (const { name, bytes } of files) expect(readFileSync(join(pgdata, name))).toEqual(bytes);
  });

  it('keeps the template in one file', () => {
    expect(readdirSync(template)).toEqual(['pgdata.gz']);
  });

  it('replaces an empty folder and a half copy left by a crash', async () => {
    mkdirSync(pgdata);
    mkdirSync(`${pgdata}.partial`);
    writeFileSync(join(`${pgdata}.partial`, 'PG_VERSION'), 'half');
    expect(await seedFromTemplate(pgdata, template)).toBe(true);
    expect(readFileSync(join(pgdata, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(existsSync(`${pgdata}.partial`)).toBe(false);
  });

  it('never touches a data directory that holds anything', async () => {
    mkdirSync(pgdata);
    writeFileSync(join(pgdata, 'PG_VERSION'), 'the lender’s database');
    expect(await seedFromTemplate(pgdata, template)).toBe(false);
    expect(readFileSync(join(pgdata, 'PG_VERSION'), 'utf8')).toBe('the lender’s database');
    expect(existsSync(join(pgdata, 'base'))).toBe(false);
  });

  it('does nothing without a template (running from the sources): PGlite runs initdb', async () => {
    expect(await seedFromTemplate(pgdata, join(root, 'no-template'))).toBe(false);
    expect(existsSync(pgdata)).toBe(false);
  });
});

describe('slimCluster', () => {
  it('leaves only the app database and a WAL of zeros, and the cluster opens with its data', async () => {
    const cluster = join(root, 'real');
    const before = await PGlite.create(cluster);
    await before.exec("create table kept (note text); insert into kept values ('migrated');");
    await before.close();
    const filesIn = (dir: string) => readdirSync(dir, { recursive: true }).length;
    const baseBefore = filesIn(join(cluster, 'base'));
    await slimCluster(cluster);
    expect(readdirSync(join(cluster, 'base'))).toHaveLength(1);
    expect(filesIn(join(cluster, 'base'))).toBeLessThan(baseBefore / 2);
    // The new segment's bytes before its trailing zeros: the checkpoint alone, not the cluster's history.
    const segments = readdirSync(join(cluster, 'pg_wal')).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(segments).toHaveLength(1);
    const segment = readFileSync(join(cluster, 'pg_wal', segments[0]!));
    let used = segment.length;
    while (used > 0 && segment[used - 1] === 0) used--;
    expect(used).toBeLessThan(256 * 1024);
    const after = await PGlite.create(cluster);
    try {
      expect((await after.query('select note from kept')).rows).toEqual([{ note: 'migrated' }]);
      expect((await after.query('select datname from pg_database')).rows).toEqual([{ datname: 'postgres' }]);
    } finally {
      await after.close();
    }
  }, 60_000);
});
