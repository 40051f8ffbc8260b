import { type RawBuilder, sql } from 'kysely';
import {
  LOAN_NUMBER_PREFIX,
  LOAN_NUMBER_SEQUENCE_DIGITS,
  LOAN_NUMBER_YEAR_DIGITS,
} from '../../domain/loan/loan-number';

/** This year's two digits in the lender's time zone ("26"): the year part of a loan number made now. */
export const loanNumberYearSql = (timeZone: string): RawBuilder<string> =>
  sql<string>`to_char(now() at time zone ${timeZone}, ${sql.lit('Y'.repeat(LOAN_NUMBER_YEAR_DIGITS))})`;

/**
 * The next loan number, in the format `src/domain/loan/loan-number.ts` defines (HL-26-000002): takes one
 * value of `loan_number_seq` and pads it to six digits, keeping every digit past 999,999 (`lpad` alone cuts
 * a longer value to its first six digits, which would repeat an earlier number).
 */
export function nextLoanNumberSql(year: RawBuilder<string>): RawBuilder<string> {
  const width = sql.lit(LOAN_NUMBER_SEQUENCE_DIGITS);
  return sql<string>`(select ${sql.lit(`${LOAN_NUMBER_PREFIX}-`)} || ${year} || '-' || lpad(n::text, greatest(${width}, length(n::text)), '0') from nextval('loan_number_seq') as n)`;
}
