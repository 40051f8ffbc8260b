/** True when a database error is a unique-constraint violation (same SQLSTATE on PGlite and PostgreSQL). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message?.includes(constraint) ?? false);
}

/**
 * PostgreSQL's "data exception" errors that only bad input can cause (same SQLSTATEs on PGlite): the
 * schemas refuse such input first; this is the net that answers 400 instead of 500 if one slips through.
 */
const badInputStates = new Set([
  '22001', // string_data_right_truncation
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow (year 0000, 10000-01-01…)
  '22021', // character_not_in_repertoire (invalid byte sequence, NUL)
  '22P02', // invalid_text_representation
  '22P05', // untranslatable_character (\u0000 or a lone surrogate in jsonb)
]);

export function isBadInputDbError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && badInputStates.has(code);
}
