import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dateLiteral, rowCount, sqlList } from './sql-lists';

// biome-ignore lint/suspicious/noExplicitAny: compiling only, no tables
const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('values written into a statement as literals (no parameters: PGlite keeps its plan)', () => {
  it('a calendar day, checked to be one', () => {
    const day = db.selectNoFrom(dateLiteral('2026-11-27').as('d')).compile();
    expect(day.sql).toBe(`select '2026-11-27'::date as "d"`);
    expect(day.parameters).toEqual([]);
    for (const bad of ["2026-11-27'; drop table users; --", '27/11/2026', '', '2026-1-1'])
      expect(() => dateLiteral(bad)).toThrow(/not a calendar day/);
  });

  it('a row count, checked to be a whole number of rows', () => {
    const page = db.selectFrom('t').select('a').limit(rowCount(1001)).offset(rowCount(0)).compile();
    expect(page.sql).toBe('select "a" from "t" limit 1001 offset 0');
    expect(page.parameters).toEqual([]);
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => rowCount(bad)).toThrow(/not a row count/);
  });

  it('a list of code constants', () => {
    const query = db.selectNoFrom(sqlList(['approved', 'on_hold']).as('s')).compile();
    expect(query.sql).toBe(`select 'approved', 'on_hold' as "s"`);
    expect(() => sqlList([])).toThrow();
  });
});
