import { type Kysely, sql } from 'kysely';
import { ANNOUNCING_TABLES as ANNOUNCING_BEFORE } from './034-answer-change-tables';

/**
 * Where names repeat, a name search of a back-office queue (pending; approved and Loan Servicing; overdue;
 * Payouts and Repayments through the loans ever approved) looks among the borrowers' distinct names first,
 * then reads the queue's rows of the names found from a btree of the queue (issue #35, docs/decisions/065,
 * 066; where names do not repeat, the queues' own trigram indexes of migrations 033 and 036 stay the way).
 *
 * Through trigram indexes of the queue's own rows, a full name ("noel gonzales", 1,428 pending at 1 M
 * applications) cost 4 ms in the index, merging the posting lists of every row that shares a trigram with
 * it, and 1–3 ms rechecking each candidate in the wide applications rows. Where names repeat, the trigram
 * match runs over each name once, in a narrow table, and the queue's rows of a matched name are one range of
 * its name index, read from the index alone (6.1 → 1.3 ms for that search; Repayments "ana cruz" 9.6 → 5.8).
 *
 * `borrower_names` holds each lower-cased name with how many applications carry it, kept by triggers in the
 * writing transaction: a bulk insert adds its names in one statement; a renamed or anonymised application
 * (account closure) moves its count, and a name no application carries any more is deleted at once, so a
 * closed account's name does not stay searchable here. Counts are changed by upsert and row lock, so
 * concurrent writers of one name serialise on its row instead of losing a count. Applications are never
 * truncated (the append-only money and audit tables refer to them and refuse it), so no TRUNCATE trigger.
 */
/** Tables whose changes are announced to the answer caches (docs/decisions/043): the names too, which lists read. */
export const ANNOUNCING_TABLES = [...ANNOUNCING_BEFORE, 'borrower_names'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table borrower_names (
      name text primary key,
      applications integer not null check (applications >= 0)
    )`.execute(db);
  await sql`create index borrower_names_trgm on borrower_names using gin (name gin_trgm_ops)`.execute(db);
  await sql`
    insert into borrower_names (name, applications)
    select lower(full_name), count(*) from applications group by 1`.execute(db);
  // The lists read it, so it announces its changes as every table they read does (migrations 020, 034).
  await sql`
    create trigger borrower_names_answers_changed
    after insert or update or delete or truncate on borrower_names
    for each statement execute function hiram_notify_answers_changed()`.execute(db);

  await sql`
    create function borrower_names_inserted() returns trigger language plpgsql as $$
    begin
      insert into borrower_names as b (name, applications)
      select lower(full_name), count(*) from new_rows group by 1 order by 1
      on conflict (name) do update set applications = b.applications + excluded.applications;
      return null;
    end $$`.execute(db);
  // One name's count down by one; the name goes when no application carries it.
  await sql`
    create function borrower_names_release(released text) returns void language plpgsql as $$
    begin
      update borrower_names set applications = applications - 1 where name = released;
      delete from borrower_names where name = released and applications = 0;
    end $$`.execute(db);
  await sql`
    create function borrower_names_changed() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform borrower_names_release(lower(old.full_name));
        return null;
      end if;
      -- Rows locked in name order, as the bulk insert locks them.
      if lower(new.full_name) < lower(old.full_name) then
        insert into borrower_names as b (name, applications) values (lower(new.full_name), 1)
        on conflict (name) do update set applications = b.applications + 1;
        perform borrower_names_release(lower(old.full_name));
      else
        perform borrower_names_release(lower(old.full_name));
        insert into borrower_names as b (name, applications) values (lower(new.full_name), 1)
        on conflict (name) do update set applications = b.applications + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger applications_names_inserted after insert on applications
    referencing new table as new_rows for each statement execute function borrower_names_inserted()`.execute(
    db,
  );
  await sql`
    create trigger applications_names_renamed after update of full_name on applications
    for each row when (lower(old.full_name) is distinct from lower(new.full_name))
    execute function borrower_names_changed()`.execute(db);
  await sql`
    create trigger applications_names_deleted after delete on applications
    for each row execute function borrower_names_changed()`.execute(db);

  // Each queue's rows by name, with what its search reads (the id, its list's date, the phone a name and
  // phone search also compares; for running loans what the overdue queue orders and tests them by): read
  // from the index alone. The name itself is in it because PostgreSQL
  // reads an expression's row from an index alone only when the column it uses is there too. The status
  // sets are written as the lists write them (`lib/sql-lists.ts` literals).
  await sql`
    create index applications_pending_name_idx on applications (lower(full_name))
    include (full_name, id, submitted_at, phone) where status in ('pending')`.execute(db);
  await sql`
    create index applications_running_name_idx on applications (lower(full_name))
    include (full_name, id, decided_at, phone, loan_number, next_due_on, overdue_from)
    where status in ('approved', 'on_hold')`.execute(db);
  await sql`
    create index applications_closed_name_idx on applications (lower(full_name))
    include (full_name, id, phone) where status in ('closed')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_closed_name_idx`.execute(db);
  await sql`drop index applications_running_name_idx`.execute(db);
  await sql`drop index applications_pending_name_idx`.execute(db);
  await sql`drop trigger applications_names_deleted on applications`.execute(db);
  await sql`drop trigger applications_names_renamed on applications`.execute(db);
  await sql`drop trigger applications_names_inserted on applications`.execute(db);
  await sql`drop function borrower_names_changed()`.execute(db);
  await sql`drop function borrower_names_release(text)`.execute(db);
  await sql`drop function borrower_names_inserted()`.execute(db);
  await sql`drop trigger borrower_names_answers_changed on borrower_names`.execute(db);
  await sql`drop table borrower_names`.execute(db);
}
