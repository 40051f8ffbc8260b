import { type Kysely, sql } from 'kysely';
import { NAME_QUEUES } from '../db/migrations/048-name-starts';
import type { Database } from '../db/schema';

interface Start {
  queue: number;
  word: string;
  start: string;
  prev: string;
  at: string | null;
  id: string;
}

const byKey = (a: Start, b: Start) =>
  `${a.id} ${a.queue} ${a.start}`.localeCompare(`${b.id} ${b.queue} ${b.start}`);

/**
 * The names' word starts the name searches read (migration 048) and, worked out here from the applications
 * alone (not by the database's function), what they should be: for each application in a searched queue, each
 * word of its lower-cased name (split at single spaces, empty words left out) with the name from that word
 * on, the word before it, the queue's order time and the id. Also the stored words no start's word is missing from.
 */
export async function nameStartsAndTruth(db: Kysely<Database>) {
  const { rows: stored } = await sql<Start>`
    select queue, word, start, prev, at::text as at, id from name_starts`.execute(db);
  const { rows: applications } = await sql<{
    id: string;
    status: string;
    name: string;
    submitted: string | null;
    decided: string | null;
  }>`select id, status, lower(full_name) as name, submitted_at::text as submitted, decided_at::text as decided
     from applications`.execute(db);
  const truth: Start[] = [];
  for (const a of applications) {
    const queue =
      a.status === 'pending'
        ? NAME_QUEUES.pending
        : a.status === 'approved' || a.status === 'on_hold'
          ? NAME_QUEUES.running
          : a.status === 'closed'
            ? NAME_QUEUES.closed
            : undefined;
    if (queue === undefined) continue;
    const words = a.name.split(' ');
    let from = 0;
    for (const [i, word] of words.entries()) {
      if (word !== '')
        truth.push({
          queue,
          word,
          start: a.name.slice(from),
          prev: words[i - 1] ?? '',
          at: queue === NAME_QUEUES.pending ? a.submitted : a.decided,
          id: a.id,
        });
      from += word.length + 1;
    }
  }
  const { rows: missing } = await sql<{ word: string }>`
    select distinct s.word from name_starts s where not exists (select 1 from name_words w where w.word = s.word)`.execute(
    db,
  );
  return { stored: stored.sort(byKey), truth: truth.sort(byKey), wordsMissing: missing.map((r) => r.word) };
}
