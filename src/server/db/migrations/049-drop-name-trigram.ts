import { type Kysely, sql } from 'kysely';

/**
 * The trigram index on every application's name (migration 003) served the name searches until the word starts
 * (migration 048) did: no list reads it any more (at 1 M applications, none of the mixed staff workload's
 * 530 pages scanned it once). Kept, every submission and every rename still entered each trigram of the name
 * in a GIN index, and the bench's seed built it for 9 s of its two minutes. The complaints queue's name filter
 * (its only other reader) follows the complaints to their loans by key instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_full_name_trgm`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index applications_full_name_trgm on applications using gin (lower(full_name) gin_trgm_ops)`.execute(
    db,
  );
}
