/** True when a database error is a unique-constraint violation (same SQLSTATE on PGlite and PostgreSQL). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e.code !== '23505') return false;
  return !constraint || e.constraint === constraint || (e.message?.includes(constraint) ?? false);
}
