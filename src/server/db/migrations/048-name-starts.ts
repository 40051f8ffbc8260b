import { type Kysely, sql } from 'kysely';
import { awaitingDecisionStatuses, runningStatuses } from '../../../domain/loan/status';
import { down as borrowerNamesDown, up as borrowerNamesUp } from './042-borrower-names';
import {
  announceNamesOf,
  NAME_ANNOUNCING_TABLES as NAME_ANNOUNCING_BEFORE,
} from './043-answers-named-by-borrower';
import { ANNOUNCING_TABLES as ANNOUNCING_BEFORE } from './046-queue-positions';

/**
 * A name search finds its rows from the word starts of the borrowers' names (docs/decisions/072, issue #35),
 * still as an exact case-insensitive "contains" on the whole name:
 *
 * - `name_starts`: for each application in a queue a name search reads (pending; running: approved, on hold;
 *   closed), one row per word of its lower-cased name (split at single spaces, empty words left out): the
 *   queue, the word, the name's text from that word on (`start`), the word before it (`prev`, '' for the
 *   first), the queue's order time (`at`: submitted_at while pending, else decided_at) and the application's
 *   id. A search with a space, `t1 rest` (t1 before the first space), is found as the starts beginning
 *   `w rest` for each word `w` ending with t1: one btree range each; where such words are many, as the starts
 *   beginning with the text after that space whose `prev` ends with t1. One without a space lies inside one
 *   word: the starts of each word containing it, in the queue's order, from the second index alone.
 * - `name_words`: every word such a start has had, for finding those `w` (a trigram index for "contains",
 *   and the reversed word for "ends with"). Only ever added to, with `on conflict do nothing`, so a write takes
 *   no lock on a common word (a hundred Marias decided at once do not wait for each other); a word no start
 *   carries any more only costs an empty range.
 *
 * Both are kept by triggers in the writing transaction, from `applications` alone: they change only when an
 * application's name, status or order time does, which announces its names before and after (migration
 * 043), so an answer cache reading them needs no announcement of its own (they are listed as derived in the
 * answer-cache test).
 *
 * They replace the queues' name trigram indexes (migrations 033, 036) and the distinct names of migration 042
 * with their name indexes (docs/decisions/065, 066): measured at 1 M applications, a full name 5.5–8.4 ms →
 * 0.65 ms, a common name's page 200 9.5 → 0.6–0.9 ms, whether names repeat or not.
 */
export const ANNOUNCING_TABLES = ANNOUNCING_BEFORE.filter(
  (table): table is Exclude<(typeof ANNOUNCING_BEFORE)[number], 'borrower_names'> =>
    table !== 'borrower_names',
);

/** The tables that announce the names of their changed rows (migration 043's), the distinct names gone. */
export const NAME_ANNOUNCING_TABLES = NAME_ANNOUNCING_BEFORE.filter((table) => table !== 'borrower_names');

/**
 * Tables kept from `applications` alone by its triggers: read by name searches, they change only with an
 * application's name, status or order time, which `applications` announces with the names (migration 043).
 */
export const DERIVED_FROM_APPLICATIONS = ['name_starts', 'name_words'] as const;

/** The queues of `name_starts`, by number. */
export const NAME_QUEUES = { pending: 1, running: 2, closed: 3 } as const;

const literals = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export async function up(db: Kysely<unknown>): Promise<void> {
  // The queue of an application's status, and its order time there: the lists' own status sets.
  await sql
    .raw(`
    create function hiram_name_queue(status text) returns smallint language sql immutable parallel safe as $$
      select case when status in (${literals(awaitingDecisionStatuses)}) then ${NAME_QUEUES.pending}
                  when status in (${literals(runningStatuses)}) then ${NAME_QUEUES.running}
                  when status = 'closed' then ${NAME_QUEUES.closed} end::smallint
    $$`)
    .execute(db);
  await sql`
    create function hiram_name_at(status text, submitted_at timestamptz, decided_at timestamptz)
    returns timestamptz language sql immutable parallel safe as $$
      select case when hiram_name_queue(status) = 1 then submitted_at else decided_at end
    $$`.execute(db);
  // Each word of the lower-cased name with the text from it on: the words after it joined again by the
  // single spaces they were split at, which gives back that part of the text exactly (3× faster than
  // looking for the spaces character by character: 2.1 against 6.0 s for a million names).
  await sql`
    create function hiram_word_starts(full_name text) returns table (word text, start text, prev text)
    language sql immutable parallel safe as $$
      select n.words[k], array_to_string(n.words[k:], ' '), coalesce(n.words[k - 1], '')
      from (select string_to_array(lower(full_name), ' ') as words) n, generate_subscripts(n.words, 1) k
      where n.words[k] <> ''
    $$`.execute(db);

  await sql`
    create table name_starts (
      queue smallint not null,
      word text not null,
      start text not null,
      prev text not null,
      at timestamptz,
      id uuid not null
    )`.execute(db);
  await sql`create table name_words (word text primary key)`.execute(db);
  await sql`
    insert into name_starts (queue, word, start, prev, at, id)
    select hiram_name_queue(a.status), w.word, w.start, w.prev, hiram_name_at(a.status, a.submitted_at, a.decided_at), a.id
    from applications a, hiram_word_starts(a.full_name) w
    where hiram_name_queue(a.status) is not null`.execute(db);
  await sql`insert into name_words (word) select distinct word from name_starts`.execute(db);
  await sql`
    create index name_starts_start_idx on name_starts (queue, start text_pattern_ops) include (at, id, prev)`.execute(
    db,
  );
  // The start too, so a word's range is read from the index alone, testing it (`lib/name-starts.ts`).
  await sql`
    create index name_starts_word_idx on name_starts (queue, word, at desc, id desc) include (start)`.execute(
    db,
  );
  await sql`create index name_words_trgm on name_words using gin (word gin_trgm_ops)`.execute(db);
  await sql`create index name_words_reversed_idx on name_words (reverse(word) text_pattern_ops)`.execute(db);

  // New words in word order (two writers adding the same new words then meet in the same order).
  await sql`
    create function name_starts_inserted() returns trigger language plpgsql as $$
    begin
      -- The names split once, for both tables.
      with starts as materialized (
        select hiram_name_queue(r.status) as queue, w.word, w.start, w.prev,
               hiram_name_at(r.status, r.submitted_at, r.decided_at) as at, r.id
        from new_rows r, hiram_word_starts(r.full_name) w
        where hiram_name_queue(r.status) is not null
      ), words as (
        insert into name_words (word) select distinct word from starts order by 1 on conflict do nothing
      )
      insert into name_starts (queue, word, start, prev, at, id) select queue, word, start, prev, at, id from starts;
      return null;
    end $$`.execute(db);
  // An application's starts leave with its old name, queue and time and come back with the new ones. Found
  // by the word index (queue, word, at, id): no index on the id alone.
  await sql`
    create function name_starts_changed() returns trigger language plpgsql as $$
    declare
      old_queue smallint;
      old_at timestamptz;
      new_queue smallint;
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        old_queue := hiram_name_queue(old.status);
        old_at := hiram_name_at(old.status, old.submitted_at, old.decided_at);
        if old_queue is not null then
          delete from name_starts s
          using hiram_word_starts(old.full_name) w
          where s.queue = old_queue and s.word = w.word and s.id = old.id
            and (s.at = old_at or (old_at is null and s.at is null));
        end if;
      end if;
      if tg_op = 'UPDATE' then
        new_queue := hiram_name_queue(new.status);
        if new_queue is not null then
          insert into name_words (word)
          select distinct w.word from hiram_word_starts(new.full_name) w order by 1
          on conflict do nothing;
          insert into name_starts (queue, word, start, prev, at, id)
          select new_queue, w.word, w.start, w.prev, hiram_name_at(new.status, new.submitted_at, new.decided_at), new.id
          from hiram_word_starts(new.full_name) w;
        end if;
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger applications_name_starts_inserted after insert on applications
    referencing new table as new_rows for each statement execute function name_starts_inserted()`.execute(db);
  await sql`
    create trigger applications_name_starts_changed
    after update of status, full_name, submitted_at, decided_at on applications
    for each row when (
      hiram_name_queue(old.status) is distinct from hiram_name_queue(new.status)
      or old.full_name is distinct from new.full_name
      or hiram_name_at(old.status, old.submitted_at, old.decided_at)
         is distinct from hiram_name_at(new.status, new.submitted_at, new.decided_at))
    execute function name_starts_changed()`.execute(db);
  await sql`
    create trigger applications_name_starts_deleted after delete on applications
    for each row execute function name_starts_changed()`.execute(db);

  // What the word starts replace: the queues' name trigram indexes (033, 036) and migration 042 whole (its
  // names, their triggers and the queues' name indexes), then 043's announcing functions of the names (their
  // triggers went with the table).
  await sql`drop index applications_pending_name_trgm`.execute(db);
  await sql`drop index applications_running_name_trgm`.execute(db);
  await sql`drop index applications_closed_name_trgm`.execute(db);
  await borrowerNamesDown(db);
  for (const suffix of ['inserted', 'updated', 'deleted'])
    await sql.raw(`drop function hiram_announce_borrower_names_${suffix}()`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger applications_name_starts_deleted on applications`.execute(db);
  await sql`drop trigger applications_name_starts_changed on applications`.execute(db);
  await sql`drop trigger applications_name_starts_inserted on applications`.execute(db);
  await sql`drop function name_starts_changed()`.execute(db);
  await sql`drop function name_starts_inserted()`.execute(db);
  await sql`drop table name_words`.execute(db);
  await sql`drop table name_starts`.execute(db);
  await sql`drop function hiram_word_starts(text)`.execute(db);
  await sql`drop function hiram_name_at(text, timestamptz, timestamptz)`.execute(db);
  await sql`drop function hiram_name_queue(text)`.execute(db);
  // Migration 042 as it was (the names, their triggers and the queues' name indexes), then 043's
  // announcements of the names, then the trigram indexes of 033 and 036.
  await borrowerNamesUp(db);
  await announceNamesOf(db, 'borrower_names', 'r.name');
  await sql`
    create index applications_pending_name_trgm on applications
    using gin (lower(full_name) gin_trgm_ops) where status in ('pending')`.execute(db);
  await sql`
    create index applications_running_name_trgm on applications
    using gin (lower(full_name) gin_trgm_ops) where status in ('approved', 'on_hold')`.execute(db);
  await sql`
    create index applications_closed_name_trgm on applications
    using gin (lower(full_name) gin_trgm_ops) where status in ('closed')`.execute(db);
}
