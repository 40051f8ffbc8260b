import { type Kysely, sql } from 'kysely';

/**
 * Complaints (issue #14; RA 11765 redress, SEC MC 18 s.2019). A borrower's complaint gets a human-readable,
 * unique reference (C-<year>-<number>, numbered by its own sequence); its optional picture is re-encoded and
 * kept privately in the file storage like the application pictures. Replies are kept as rows (never edited);
 * the status moves received → in_progress → resolved, and a resolved complaint carries who resolved it, when
 * and the note. The queue reads open complaints oldest first from a partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence complaint_reference_seq`.execute(db);
  await sql`
    create table complaints (
      id uuid primary key default gen_random_uuid(),
      reference text not null unique,
      borrower_id uuid not null references users (id),
      application_id uuid references applications (id),
      category text not null,
      text text not null,
      picture_key text,
      picture_content_type text,
      status text not null default 'received' check (status in ('received', 'in_progress', 'resolved')),
      assigned_to uuid references users (id),
      created_at timestamptz not null default now(),
      resolved_at timestamptz,
      resolved_by uuid references users (id),
      resolution_note text,
      constraint complaints_resolution check (
        (status = 'resolved') = (resolved_at is not null and resolved_by is not null and resolution_note is not null)
      ),
      constraint complaints_picture check ((picture_key is null) = (picture_content_type is null))
    )`.execute(db);
  await sql`create index complaints_borrower_idx on complaints (borrower_id, created_at desc)`.execute(db);
  await sql`create index complaints_open_idx on complaints (created_at) where status <> 'resolved'`.execute(
    db,
  );
  await sql`create index complaints_created_idx on complaints (created_at)`.execute(db);
  await sql`
    create table complaint_replies (
      id uuid primary key default gen_random_uuid(),
      complaint_id uuid not null references complaints (id),
      author_id uuid not null references users (id),
      message text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index complaint_replies_complaint_idx on complaint_replies (complaint_id, created_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table complaint_replies, complaints`.execute(db);
  await sql`drop sequence complaint_reference_seq`.execute(db);
}
