import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoanNumber, normaliseLoanReference } from '../../domain/loan/loan-number';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { loanNumberYearSql, nextLoanNumberSql } from './loan-number-sql';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const next = async () =>
  (await t.db.selectNoFrom(nextLoanNumberSql(sql<string>`'26'`).as('n')).executeTakeFirstOrThrow()).n;

describe('loan numbers made by the database', () => {
  it('are in the format the domain defines, with this year in the lender’s time zone', async () => {
    const year = (await t.db.selectNoFrom(loanNumberYearSql('Asia/Manila').as('y')).executeTakeFirstOrThrow())
      .y;
    expect(year).toMatch(/^\d{2}$/);
    const made = (
      await t.db
        .selectNoFrom(nextLoanNumberSql(loanNumberYearSql('Asia/Manila')).as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    expect(made.startsWith(`HL-${year}-`)).toBe(true);
    expect(isLoanNumber(made)).toBe(true);
    expect(normaliseLoanReference(made)).toBe(made);
  });

  it('keep every digit past 999,999 instead of repeating an earlier number', async () => {
    await sql`select setval('loan_number_seq', 999998)`.execute(t.db);
    expect(await next()).toBe('HL-26-999999');
    expect(await next()).toBe('HL-26-1000000');
    expect(await next()).toBe('HL-26-1000001');
    expect(normaliseLoanReference('hl261000001')).toBe('HL-26-1000001');
  });
});
