import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedFromTemplate } from './pglite-template';

let root: string;
let template: string;
let pgdata: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hiram-template-'));
  template = join(root, 'template');
  mkdirSync(join(template, 'base'), { recursive: true });
  writeFileSync(join(template, 'PG_VERSION'), '17\n');
  writeFileSync(join(template, 'base', 'table'), 'migrated');
  pgdata = join(root, 'data', 'pgdata');
  mkdirSync(join(root, 'data'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('seedFromTemplate', () => {
  it('copies the template into a data directory that has no database yet', () => {
    expect(seedFromTemplate(pgdata, template)).toBe(true);
    expect(readFileSync(join(pgdata, 'base', 'table'), 'utf8')).toBe('migrated');
    expect(existsSync(`${pgdata}.partial`)).toBe(false);
  });

  it('replaces an empty folder and a half copy left by a crash', () => {
    mkdirSync(pgdata);
    mkdirSync(`${pgdata}.partial`);
    writeFileSync(join(`${pgdata}.partial`, 'PG_VERSION'), 'half');
    expect(seedFromTemplate(pgdata, template)).toBe(true);
    expect(readFileSync(join(pgdata, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(existsSync(`${pgdata}.partial`)).toBe(false);
  });

  it('never touches a data directory that holds anything', () => {
    mkdirSync(pgdata);
    writeFileSync(join(pgdata, 'PG_VERSION'), 'the lender’s database');
    expect(seedFromTemplate(pgdata, template)).toBe(false);
    expect(readFileSync(join(pgdata, 'PG_VERSION'), 'utf8')).toBe('the lender’s database');
    expect(existsSync(join(pgdata, 'base'))).toBe(false);
  });

  it('does nothing without a template (running from the sources): PGlite runs initdb', () => {
    expect(seedFromTemplate(pgdata, join(root, 'no-template'))).toBe(false);
    expect(existsSync(pgdata)).toBe(false);
  });
});
