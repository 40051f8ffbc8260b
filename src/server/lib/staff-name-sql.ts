import { type Expression, sql } from 'kysely';

/**
 * The name a staff member is shown by (username, else phone) for a user id column of a list's page. A
 * subquery rather than a join: a searched page is planned on every request, and each join to `users` adds
 * to that planning (two of them cost PostgreSQL ~0.13 ms of the ~0.5 ms of a searched Pending page).
 */
export const staffNameSql = (userId: Expression<string | null>) =>
  sql<string | null>`(select coalesce(u.username, u.phone) from users u where u.id = ${userId})`;
