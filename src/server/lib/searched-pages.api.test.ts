import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitingDecisionStatuses, runningStatuses } from '../../domain/loan/status';
import { PAGE_SIZE } from '../../domain/schemas/staff';
import { namedTexts } from '../db/prepared-statements';
import { seedListApplications } from '../test-support/list-pages';
import { createTestApp, type TestApp } from '../test-support/test-app';
import {
  applicationList,
  BroadSearches,
  COUNT_CAP,
  SEARCH_SORT_LIMIT,
  searchedListPage,
  toPage,
} from './paging';
import { sqlList } from './sql-lists';

/**
 * A searched page of a queue is read one of three ways (`searchedPage`): its matches sorted, its list's order
 * walked with the count, or only the page walked past a count known to be capped; a name's rows are found
 * from the names' word starts (migration 048): each matching word's starts in order, or the starts of the
 * words before and after a space. Every way must give the page a plain `lower(full_name) like` with ORDER BY
 * … OFFSET gives, with the total the list promises: exact when its matches were sorted, else exact up to
 * `COUNT_CAP` rows past the page's first row and "1,000+" beyond.
 */
let t: TestApp;

/** Names a word-start search could get wrong: repeated words and phrases, two spaces, accents, punctuation. */
const trickyNames = [
  'Maria Maria Santos',
  // "maria maria" occurs twice, the second time right after the first word's space.
  'Maria Maria Maria',
  'Maria Santos Maria Santos',
  'Ana  Maria Santos',
  'Anamaria Santos',
  'María José Santos',
  "O'Brien-Santos Maria",
  'Rosa Mariano Dela Cruz',
  'Santos',
  // More words ending with "ana" than are read one by one: "ana cruz" is read from the word after the space.
  ...'bcdfghjklmnpqrstvwxyz'.split('').map((letter) => `${letter}ana Cruz`),
  'Ana Cruz Ana Cruz',
  'Ana  Cruz',
];

beforeAll(async () => {
  // 400 names repeating (Maria Santos, Jose Reyes, …): "a" matches more than a thousand of each queue,
  // "maria" a few dozen; then some renamed to the tricky names (through the rename trigger).
  t = await createTestApp();
  await seedListApplications(t.db);
  await sql`
    update applications a set full_name = (${sql.val(trickyNames)}::text[])[1 + r.n % ${trickyNames.length}]
    from (select id, row_number() over (order by loan_number) as n from applications
          where status in ('pending', 'approved') and full_name like 'Jose %') r
    where a.id = r.id and r.n <= 160`.execute(t.db);
});
afterAll(() => t.close());

type Queue = 'pending' | 'approved';
const queueOf = {
  pending: [awaitingDecisionStatuses, 'submitted_at'],
  approved: [runningStatuses, 'decided_at'],
} as const;

async function walked(queue: Queue, name: string, page: number) {
  const [statuses, column] = queueOf[queue];
  const matching = sql`status in (${sqlList(statuses)}) and lower(full_name) like ${`%${name}%`}`;
  const { rows } = await sql<{ id: string }>`select id from applications where ${matching}
    order by ${sql.ref(column)} desc, id desc offset ${(page - 1) * PAGE_SIZE} limit ${PAGE_SIZE}`.execute(
    t.db,
  );
  const { rows: counts } = await sql<{ n: number }>`
    select count(*)::int as n from applications where ${matching}`.execute(t.db);
  return { ids: rows.map((r) => r.id), matches: counts[0]!.n };
}

/** How a search is read: sorting up to `sortLimit` matches, remembering broad searches or not. */
interface Reading {
  sortLimit?: number;
  broadSearches?: BroadSearches;
}

async function listed(queue: Queue, name: string, page: number, reading: Reading) {
  const [statuses, column] = queueOf[queue];
  const list = await applicationList(
    t.db,
    statuses,
    column,
    { page, name, phone: '' },
    reading.broadSearches,
  );
  const { rows, counted } = await searchedListPage(
    t.db,
    { ...list, ...(reading.sortLimit ? { sortLimit: reading.sortLimit } : {}) },
    (keys) => keys.select('page.id'),
  );
  return toPage(
    rows.map((r) => ({ id: r.id as string })),
    counted,
    page,
  );
}

async function expectSamePage(queue: Queue, name: string, page: number, reading: Reading) {
  const answer = await listed(queue, name, page, reading);
  const walk = await walked(queue, name, page);
  const what = `${queue} "${name}" page ${page} ${JSON.stringify({ ...reading, broadSearches: !!reading.broadSearches })}`;
  expect(
    answer.items.map((item) => item.id),
    what,
  ).toEqual(walk.ids);
  const offset = (page - 1) * PAGE_SIZE;
  const rest = walk.matches - offset;
  // A search whose matches are all sorted knows its exact total. Otherwise from the page on, counted up to
  // the cap; a page past the end says where the end is.
  const sorted = walk.matches <= (reading.sortLimit ?? SEARCH_SORT_LIMIT);
  const expected =
    rest > 0
      ? sorted
        ? { total: walk.matches, totalCapped: false }
        : { total: offset + Math.min(rest, COUNT_CAP), totalCapped: rest > COUNT_CAP }
      : { total: page === 1 ? 0 : walk.matches, totalCapped: false };
  expect({ total: answer.total, totalCapped: answer.totalCapped }, what).toEqual(expected);
}

const readings = (): Reading[] => [
  {},
  { sortLimit: 20 },
  // Remembered as broad after its first page: later pages walk without counting the matches again.
  { sortLimit: 20, broadSearches: new BroadSearches() },
];

/** Whole words, parts of words before and after a space, repeated words and phrases, two spaces, accents. */
const searches = [
  'maria santos',
  'maria',
  'a',
  'zzzz nobody',
  'ria san',
  'santos',
  'maria maria',
  'santos maria',
  'a  maria',
  'maría',
  "o'brien-s",
  'os ma',
  's',
  'ria',
  'ana cruz',
  'na cr',
  'ana cruz ana',
  'a  cruz',
  // Untrimmed (the API trims): a space before the first word.
  ' maria',
];

describe('searched queue pages', () => {
  it('every way of reading a search gives the walk’s page and the promised total', async () => {
    for (const queue of ['pending', 'approved'] as const) {
      for (const name of searches) {
        const { matches } = await walked(queue, name, 1);
        const last = Math.max(1, Math.ceil(matches / PAGE_SIZE));
        const pages = [...new Set([1, 2, 3, Math.ceil(last / 2), last - 1, last, last + 1, last + 5])].filter(
          (p) => p >= 1,
        );
        for (const reading of readings()) {
          for (const page of pages) await expectSamePage(queue, name, page, reading);
        }
      }
    }
    // The searches above cover a capped total ("a": more than the cap past its first pages) and none.
    const { matches } = await walked('pending', 'a', 1);
    expect(matches).toBeGreaterThan(COUNT_CAP + 2 * PAGE_SIZE);
  });

  it('a search read from one range of the name starts runs as one named text per way of reading, whatever its text and page', async () => {
    for (const [name, page] of [
      ['jose reyes', 1],
      ['jose cruz', 2],
      ['jose reyes', 3],
      // "maria" ends two words here (Maria, Anamaria): two ranges, a text of its own, not named.
      ['maria santos', 1],
    ] as const) {
      await listed('pending', name, page, {});
    }
    // One word each, matching more than a sort of 20: sorted, then walked along the word's starts.
    for (const [name, page] of [
      ['reyes', 1],
      ['cruz', 3],
      ['reyes', 5],
    ] as const) {
      await listed('pending', name, page, { sortLimit: 20 });
    }
    // This test's own statements (its rows select only the id): other files sharing the worker name theirs.
    const pending = (read: string) =>
      namedTexts().filter(
        (text) =>
          text.startsWith('select "page"."id", "page"."window_count"') &&
          text.includes('"name_starts"') &&
          text.includes('s.queue in (1)') &&
          text.includes(read),
      );
    expect(pending('s.start like')).toHaveLength(1);
    // At most one per way of reading (sorted matches, walk, walk past the cap), whatever the page (the test
    // above walked many pages of single words too).
    expect(pending('s.word =').length).toBeGreaterThanOrEqual(2);
    expect(pending('s.word =').length).toBeLessThanOrEqual(3);
    expect(pending('union all')).toHaveLength(0);
    // With a phone too, the best plan depends on both values: never named.
    for (const page of [1, 2, 3, 4, 5, 6, 7]) {
      const list = await applicationList(t.db, awaitingDecisionStatuses, 'submitted_at', {
        name: 'reyes',
        phone: '0',
        page,
      });
      await searchedListPage(t.db, { ...list, sortLimit: 20 }, (keys) => keys.select('page.id'));
    }
    expect(pending('"a"."phone" like')).toHaveLength(0);
    // The words a search's text is in are looked up by one named text per kind of search.
    expect(namedTexts().filter((text) => text.includes('reverse(word) like'))).toHaveLength(1);
  });
});
