import { type Kysely, sql } from 'kysely';

// Lists order by (date desc, id desc) so paging is stable when dates tie; the indexes must carry the id
// too, or the database sorts every matching row before it can return the first page.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_status_submitted_idx`.execute(db);
  await sql`drop index applications_status_decided_idx`.execute(db);
  await sql`create index applications_status_submitted_idx on applications (status, submitted_at desc, id desc)`.execute(
    db,
  );
  await sql`create index applications_status_decided_idx on applications (status, decided_at desc, id desc)`.execute(
    db,
  );
  await sql`drop index disbursements_status_idx`.execute(db);
  await sql`create index disbursements_status_idx on disbursements (status, requested_at desc, id desc)`.execute(
    db,
  );
  await sql`create index disbursements_requested_idx on disbursements (requested_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index disbursements_requested_idx`.execute(db);
  // The indexes as 001 made them, without the id that breaks ties.
  await sql`drop index disbursements_status_idx`.execute(db);
  await sql`create index disbursements_status_idx on disbursements (status, requested_at desc)`.execute(db);
  await sql`drop index applications_status_decided_idx`.execute(db);
  await sql`create index applications_status_decided_idx on applications (status, decided_at desc)`.execute(
    db,
  );
  await sql`drop index applications_status_submitted_idx`.execute(db);
  await sql`create index applications_status_submitted_idx on applications (status, submitted_at desc)`.execute(
    db,
  );
}
