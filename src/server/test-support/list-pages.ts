import { type Kysely, sql } from 'kysely';
import { seedApplications } from '../../../bench/seed';
import type { Database } from '../db/schema';

/**
 * The rows the list-page tests read (queue positions, searched pages): 3,000 applications as the bench seeds
 * them (400 names repeating, every status, over 960 hours, each hour's rows on one instant), and 60 pending
 * ones submitted on one instant at an hour's first microsecond, so ties across a page's edge are broken by
 * the id alone.
 */
export async function seedListApplications(db: Kysely<Database>) {
  await seedApplications(db, 3_000, '$argon2id$not-a-real-hash', () => {});
  await sql`update applications set submitted_at = date_trunc('hour', now()) - interval '5 hours'
    where id in (select id from applications where status = 'pending' order by loan_number limit 60)`.execute(
    db,
  );
}
