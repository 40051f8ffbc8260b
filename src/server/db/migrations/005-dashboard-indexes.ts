import { type Kysely, sql } from 'kysely';

// The dashboard counts and averages over every application and borrower; these let each figure come from
// an index-only scan instead of reading the tables.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index applications_status_amount_idx on applications (status, amount)`.execute(db);
  await sql`create index users_role_created_idx on users (role, created_at)`.execute(db);
  await sql`drop index users_created_at_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_created_at_idx on users (created_at)`.execute(db);
  await sql`drop index users_role_created_idx`.execute(db);
  await sql`drop index applications_status_amount_idx`.execute(db);
}
