import { type Kysely, sql } from 'kysely';

/**
 * A change to a borrower's rows names the borrowers it changed, so that each instance keeps the answers of
 * name searches that cannot contain them (issue #35: a write empties only the answers it can change, by
 * table and key; docs/decisions/067). Migration 034's announcement is the table's name; for the tables whose
 * every row belongs to one application it becomes `table:["name", ...]`, the lower-cased full names
 * (`lower(full_name)`, exactly as the searches compare them) of the applications whose rows the statement
 * changed, before and after. A listener forgets every answer reading the table except a name search whose
 * text none of those names contains: such a search never held, and cannot come to hold, a changed row.
 *
 * Statement-level triggers with transition tables (one per event: PostgreSQL allows transition tables on a
 * single-event trigger only). More than `MAX_NAMES` rows, a row whose application is gone, or a long payload:
 * the table's name alone, as before (everything reading it goes). A truncate: the table's name. A statement
 * that changed no row announces nothing.
 */
export const MAX_NAMES = 20;

/** A changed row's (`r`) application's lower-cased name, for a table with `application_id`. */
const OF_ITS_APPLICATION = '(select lower(a.full_name) from applications a where a.id = r.application_id)';

/** Each table, and how a changed row (`r`) finds its application's lower-cased name. */
const NAMED_TABLES = {
  applications: 'lower(r.full_name)',
  borrower_names: 'r.name',
  disbursements: OF_ITS_APPLICATION,
  repayments: OF_ITS_APPLICATION,
  repayment_reversals: `(select lower(a.full_name) from repayments p join applications a on a.id = p.application_id
     where p.id = r.repayment_id)`,
  terms_changes: OF_ITS_APPLICATION,
} as const;

export const NAME_ANNOUNCING_TABLES = Object.keys(NAMED_TABLES) as (keyof typeof NAMED_TABLES)[];

/** Each event: its trigger's suffix, the rows it counts, and the rows whose names it gathers (before, after). */
const events = [
  ['inserted', 'insert', 'new table as new_rows', 'new_rows', 'select * from new_rows'],
  [
    'updated',
    'update',
    'old table as old_rows new table as new_rows',
    'new_rows',
    'select * from old_rows union all select * from new_rows',
  ],
  ['deleted', 'delete', 'old table as old_rows', 'old_rows', 'select * from old_rows'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function hiram_announce_names(tbl text, rows_changed bigint, names text[]) returns void
    language plpgsql as $$
    declare
      payload text;
    begin
      if rows_changed = 0 then
        return;
      end if;
      if rows_changed <= ${sql.lit(MAX_NAMES)} and names is not null and array_position(names, null) is null then
        payload := tbl || ':' || to_json(names)::text;
      end if;
      -- NOTIFY's payload limit is 8000 bytes; long names go as the table alone.
      if payload is null or octet_length(payload) > 4000 then
        payload := tbl;
      end if;
      perform pg_notify('hiram_answers', payload);
    end $$`.execute(db);
  for (const [table, name] of Object.entries(NAMED_TABLES)) await announceNamesOf(db, table, name);
}

/**
 * `table` announces the names of its changed rows (`name`: a changed row `r`'s lower-cased name) on insert,
 * update and delete, and its name alone on truncate, instead of migration 034's table name on every change.
 */
export async function announceNamesOf(db: Kysely<unknown>, table: string, name: string): Promise<void> {
  for (const [suffix, event, referencing, counted, rows] of events) {
    // Counted before the names are gathered: a bulk statement costs one bounded count, no aggregate.
    await sql
      .raw(`
      create function hiram_announce_${table}_${suffix}() returns trigger language plpgsql as $$
      declare
        changed bigint := (select count(*) from (select 1 from ${counted} limit ${MAX_NAMES + 1}) c);
      begin
        perform hiram_announce_names(TG_TABLE_NAME, changed, case when changed <= ${MAX_NAMES} then
          (select array_agg(distinct ${name}) from (${rows}) r) end);
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(`
      create trigger ${table}_answers_${suffix} after ${event} on ${table}
      referencing ${referencing} for each statement execute function hiram_announce_${table}_${suffix}()`)
      .execute(db);
  }
  // A truncate names no rows: the table alone, by migration 034's function.
  await sql.raw(`drop trigger ${table}_answers_changed on ${table}`).execute(db);
  await sql
    .raw(`
    create trigger ${table}_answers_changed after truncate on ${table}
    for each statement execute function hiram_notify_answers_changed()`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of NAME_ANNOUNCING_TABLES) {
    await sql.raw(`drop trigger ${table}_answers_changed on ${table}`).execute(db);
    await sql
      .raw(`
      create trigger ${table}_answers_changed after insert or update or delete or truncate on ${table}
      for each statement execute function hiram_notify_answers_changed()`)
      .execute(db);
    for (const [suffix] of events) {
      await sql.raw(`drop trigger ${table}_answers_${suffix} on ${table}`).execute(db);
      await sql.raw(`drop function hiram_announce_${table}_${suffix}()`).execute(db);
    }
  }
  await sql`drop function hiram_announce_names(text, bigint, text[])`.execute(db);
}
