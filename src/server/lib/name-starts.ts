import { type Kysely, type SelectQueryBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { awaitingDecisionStatuses, runningStatuses } from '../../domain/loan/status';
import { NAME_QUEUES } from '../db/migrations/048-name-starts';
import { executePrepared } from '../db/prepared-statements';
import type { Database } from '../db/schema';
import { escapeLike } from './like';
import { sameList } from './sql-lists';

/**
 * Name searches through the word starts of the borrowers' names (migration 048, docs/decisions/072): the same
 * rows as `lower(full_name) like '%text%'`, found by btree. A text with a space, `t1 rest`, occurs where a
 * start begins with `w rest` for a word `w` ending with t1; one without a space, where a start's word contains
 * it. The words are read first (`nameWords`), so each range is a constant prefix PostgreSQL estimates well
 * (a join computing them inside the statement was planned as a scan of every start, or JIT-compiled). A name
 * holding the text more than once has several such starts: only the last one counts (the text does not occur
 * again after its first word), so each application comes once.
 */

export type NameQueue = keyof typeof NAME_QUEUES;

/** A name search's text as names are compared: lower-cased, taken literally. */
export const nameSearchText = (name: string) => name.toLowerCase();

/**
 * At most this many words are read one by one (each a range of an index); with more, a phrase is read from the
 * word after its space and a single word walks the list's own index.
 */
export const ORDERED_WORDS = 16;

/** The name_starts queue of a list's status set (Pending's, or the running loans'), where it has one. */
export function nameQueueOf(statuses: readonly string[]): NameQueue | undefined {
  if (sameList(statuses, awaitingDecisionStatuses)) return 'pending';
  if (sameList(statuses, runningStatuses)) return 'running';
  return undefined;
}

/**
 * The start `s` is the last one of its name the text occurs from: after its first word the text does not
 * occur again (written as a NOT LIKE, which PostgreSQL estimates as true for almost every row, as it is).
 */
const lastOccurrence = (text: string) =>
  sql<SqlBool>`substr(s.start, strpos(s.start || ' ', ' ')) not like ${`%${escapeLike(text)}%`}`;

/** Code points, as PostgreSQL counts a text's characters (LIKE's `_` matches one). */
const characters = (text: string) => [...text].length;

/**
 * The same test for a phrase's start `word rest…`, where the text occurs from character `k` = the word's length
 * less its first part's: it does not occur again from any later character. The text's space cannot fall
 * inside the first word, so a later occurrence begins after it: the same rows as `lastOccurrence`, without
 * cutting each start at its first space (a third of the cost of reading a common full name's starts).
 */
const lastPhraseOccurrence = (text: string, word: string, first: string) =>
  sql<SqlBool>`s.start not like ${`${'_'.repeat(characters(word) - characters(first) + 1)}%${escapeLike(text)}%`}`;

const inQueues = (queues: readonly NameQueue[]) =>
  sql<SqlBool>`s.queue in (${sql.join(queues.map((queue) => sql.lit(NAME_QUEUES[queue])))})`;

/** Code point by code point, as PostgreSQL's reverse(). */
const reversed = (text: string) => [...text].reverse().join('');

/**
 * What a name search reads from the word starts, found first (one small statement): the lower-cased `text`;
 * with a space (`phrase`), the words ending with its part before the first space and `rest`, the part from
 * that space on; without one, the words containing it. A phrase with more than `ORDERED_WORDS` such words has
 * `words` null: it is read from the word after its first space instead. Undefined for a text without a space
 * and more such words (a letter or two), or a phrase whose first space is followed by another: the list then
 * walks its own order, testing each row.
 */
export interface NameWords {
  text: string;
  phrase: boolean;
  rest: string;
  words: string[] | null;
}

export async function nameWords(db: Kysely<Database>, name: string): Promise<NameWords | undefined> {
  const text = nameSearchText(name);
  const space = text.indexOf(' ');
  // The lists' searches are trimmed; a text starting with a space has no first part to look words up by.
  if (space === 0) return undefined;
  const phrase = space > 0;
  // Two texts, one per kind of search: named, each connection parses them once (decision 074).
  const rows = await executePrepared(
    db,
    db
      .selectFrom('name_words')
      .select('word')
      .where(
        phrase
          ? sql<SqlBool>`reverse(word) like ${`${escapeLike(reversed(text.slice(0, space)))}%`}`
          : sql<SqlBool>`word like ${`%${escapeLike(text)}%`}`,
      )
      .limit(ORDERED_WORDS + 1),
  );
  const rest = phrase ? text.slice(space) : '';
  if (rows.length <= ORDERED_WORDS) return { text, phrase, rest, words: rows.map((row) => row.word) };
  // Many words end like its first part ("ana" in "ana cruz"): by the next word's starts, if it has one.
  return phrase && rest[1] !== ' ' ? { text, phrase, rest, words: null } : undefined;
}

/**
 * The applications of `queues` whose name contains `found.text`, one start each, as `id` and the queue's
 * order time `at`, in one statement: for a phrase the starts beginning `w rest` (a range of the start index
 * per word), otherwise the starts of each word (a range of the word index per word, in the queue's order,
 * newest first: ordered by `at`, PostgreSQL merges them, so they walk as the list's own index would).
 */
export function nameStarts(
  db: Kysely<Database>,
  queues: readonly NameQueue[],
  found: NameWords,
): SelectQueryBuilder<
  Database & { u: { id: string; at: Date | null } },
  'u',
  { id: string; at: Date | null }
> {
  if (found.words === null) {
    // The text occurs where a word ending with its first part is followed, after one space, by a start
    // beginning with the rest: that start's `prev` ends with the first part. One row per application
    // (a name holding the text twice has two such starts).
    const first = found.text.slice(0, found.text.length - found.rest.length);
    const next = db
      .selectFrom('name_starts as s')
      .select(['s.id', 's.at'])
      .where(inQueues(queues))
      .where(sql<SqlBool>`s.start like ${`${escapeLike(found.rest.slice(1))}%`}`)
      .where(sql<SqlBool>`s.prev like ${`%${escapeLike(first)}`}`)
      .groupBy(['s.id', 's.at']);
    return db.selectFrom(next.as('u')).select(['u.id', 'u.at']);
  }
  const words = found.words;
  const first = found.text.slice(0, found.text.length - found.rest.length);
  const ofWord = (word: string | null) =>
    db
      .selectFrom('name_starts as s')
      .select(['s.id', 's.at'])
      .where(inQueues(queues))
      .where(
        word === null
          ? sql<SqlBool>`false`
          : found.phrase
            ? sql<SqlBool>`s.start like ${`${escapeLike(word + found.rest)}%`}`
            : sql<SqlBool>`s.word = ${word}`,
      )
      .where(
        word !== null && found.phrase
          ? lastPhraseOccurrence(found.text, word, first)
          : lastOccurrence(found.text),
      );
  const [head, ...others] = words.length > 0 ? words : [null];
  let union = ofWord(head!);
  for (const word of others) union = union.unionAll(ofWord(word));
  return db.selectFrom(union.as('u')).select(['u.id', 'u.at']);
}

/**
 * Taken before an anonymisation changes names (`forgetUnusedNameWords`): a writer adding words holds the
 * table's ROW EXCLUSIVE lock until it commits, so once this is granted every start added with an existing
 * word is committed and seen; and two anonymisations wait for each other here rather than deadlock.
 */
export async function lockNameWords(trx: Transaction<Database>): Promise<void> {
  await sql`lock table name_words in share row exclusive mode`.execute(trx);
}

/**
 * Forgets the words of `names` that no name start carries any more (after `lockNameWords`, in the same
 * transaction): an anonymised borrower's name leaves nothing behind in the search's words.
 */
export async function forgetUnusedNameWords(
  trx: Transaction<Database>,
  names: readonly string[],
): Promise<void> {
  if (names.length === 0) return;
  const queues = sql.join(Object.values(NAME_QUEUES).map((queue) => sql.lit(queue)));
  await sql`
    delete from name_words w
    where w.word in (select ws.word from unnest(${sql.val(names)}::text[]) n, hiram_word_starts(n) ws)
      and not exists (select 1 from name_starts s where s.queue in (${queues}) and s.word = w.word)`.execute(
    trx,
  );
}
