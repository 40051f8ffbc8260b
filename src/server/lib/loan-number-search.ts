import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  LOAN_NUMBER_PREFIX,
  loanNumberSearchText,
  normaliseLoanReference,
} from '../../domain/loan/loan-number';
import { escapeLike } from './like';

/**
 * A back-office search by loan number, as forgiving as the webhook (issue #32, docs/decisions/038): the
 * number `typed` clearly means (`hl26-2` is HL-26-000002), or any number that contains what was typed,
 * separators and case aside (`26000002`, `hl26 0000`). `column` is the stored, canonical loan number.
 *
 * A stored number without its dashes is the prefix's letters, then digits only: text that starts with the
 * prefix's first letter can only be found at its start, so "contains" is asked as "starts with", which a
 * btree answers (migration 041) instead of trigrams every loan number shares.
 */
export function loanNumberMatchesSql(column: string, typed: string): RawBuilder<SqlBool> {
  const exact = normaliseLoanReference(typed);
  const text = loanNumberSearchText(typed);
  const ref = sql.ref(column);
  const anchored = text.startsWith(LOAN_NUMBER_PREFIX.charAt(0));
  const pattern = `${anchored ? '' : '%'}${escapeLike(text)}%`;
  const contains = sql<SqlBool>`replace(${ref}, '-', '') like ${pattern}`;
  if (exact) return sql<SqlBool>`(${ref} = ${exact} or ${contains})`;
  return text === '' ? sql<SqlBool>`false` : contains;
}
