import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The distinct names the name searches start from (migration 042) and, written independently of its
 * triggers, what they should be: each lower-cased name of an application with how many carry it.
 */
export async function borrowerNamesAndTruth(db: Kysely<Database>) {
  const { rows: stored } = await sql<{ name: string; applications: number }>`
    select name, applications from borrower_names order by name`.execute(db);
  const { rows: truth } = await sql<{ name: string; applications: number }>`
    select lower(full_name) as name, count(*)::int as applications from applications
    group by 1 order by 1`.execute(db);
  return { stored, truth };
}
