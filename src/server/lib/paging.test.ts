import { describe, expect, it } from 'vitest';
import {
  BroadSearches,
  COUNT_CAP,
  type PageRead,
  pageOffset,
  SEARCH_SORT_LIMIT,
  searchedPage,
} from './paging';

/** A page reader that records how it was asked to read, answering `rows` for the sorted-matches read. */
function reader(sortedRows: { match_count: number }[]) {
  const calls: PageRead[] = [];
  const read = async (how: PageRead) => {
    calls.push(how);
    return how === 'sorted-matches' ? sortedRows : [{ match_count: -1 }];
  };
  return { calls, read };
}

/** The last page whose capped count still fits inside the sorted matches' count. */
const lastPageInsideCount = Math.floor((SEARCH_SORT_LIMIT - COUNT_CAP) / 10) + 1;

describe('searchedPage', () => {
  it('walks the list order at once when nothing is searched', async () => {
    const { calls, read } = reader([]);
    await searchedPage(false, 1, read);
    expect(calls).toEqual(['walk']);
  });

  it('keeps the sorted matches while they are all there is', async () => {
    const { calls, read } = reader([{ match_count: SEARCH_SORT_LIMIT }]);
    expect(await searchedPage(true, 3, read)).toEqual([{ match_count: SEARCH_SORT_LIMIT }]);
    expect(calls).toEqual(['sorted-matches']);
  });

  it('walks only the page when the search matched more than it sorts and the capped count lies inside them', async () => {
    const { calls, read } = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    expect(await searchedPage(true, 1, read)).toEqual([{ match_count: -1 }]);
    expect(calls).toEqual(['sorted-matches', 'walk-past-cap']);
    expect(pageOffset(lastPageInsideCount) + COUNT_CAP).toBeLessThan(SEARCH_SORT_LIMIT + 1);
    const last = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    await searchedPage(true, lastPageInsideCount, last.read);
    expect(last.calls).toEqual(['sorted-matches', 'walk-past-cap']);
  });

  it("sorts up to a list's own limit when it has one", async () => {
    const { calls, read } = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    await searchedPage(true, 1, read, undefined, 10_000);
    expect(calls).toEqual(['sorted-matches']);
    const more = reader([{ match_count: 10_001 }]);
    await searchedPage(true, 1, more.read, undefined, 10_000);
    expect(more.calls).toEqual(['sorted-matches', 'walk-past-cap']);
  });

  it('walks and counts when the capped count reaches past the matches counted', async () => {
    const { calls, read } = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    await searchedPage(true, lastPageInsideCount + 1, read);
    expect(calls).toEqual(['sorted-matches', 'walk']);
  });

  it('takes an empty first page as no matches, and reads an empty later page again in list order', async () => {
    const first = reader([]);
    expect(await searchedPage(true, 1, first.read)).toEqual([]);
    expect(first.calls).toEqual(['sorted-matches']);
    const later = reader([]);
    await searchedPage(true, 400, later.read);
    expect(later.calls).toEqual(['sorted-matches', 'walk']);
  });

  it('answers an empty later page at once when the matches, counted, are few; reads it in list order when not', async () => {
    const few = reader([]);
    expect(await searchedPage(true, 400, few.read, async () => SEARCH_SORT_LIMIT)).toEqual([]);
    expect(few.calls).toEqual(['sorted-matches']);
    const many = reader([]);
    await searchedPage(true, 400, many.read, async () => SEARCH_SORT_LIMIT + 1);
    expect(many.calls).toEqual(['sorted-matches', 'walk']);
    const near = reader([]);
    await searchedPage(true, 2, near.read, async () => SEARCH_SORT_LIMIT + 1);
    expect(near.calls).toEqual(['sorted-matches', 'walk-past-cap']);
  });

  it('reads a search remembered as broad the way its count decided, without counting again', async () => {
    const memory = new BroadSearches();
    const search = { compile: () => ({ sql: 'select … where name like $1', parameters: ['%maria%'] }) };
    const first = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    await searchedPage(true, 1, first.read, undefined, SEARCH_SORT_LIMIT, memory.of(search));
    expect(first.calls).toEqual(['sorted-matches', 'walk-past-cap']);
    const again = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    await searchedPage(true, 2, again.read, undefined, SEARCH_SORT_LIMIT, memory.of(search));
    expect(again.calls).toEqual(['walk-past-cap']);
    // Past the count it proved, a page walks and counts, as after counting.
    const deep = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    await searchedPage(
      true,
      lastPageInsideCount + 1,
      deep.read,
      undefined,
      SEARCH_SORT_LIMIT,
      memory.of(search),
    );
    expect(deep.calls).toEqual(['walk']);
  });

  it('remembers only a search that matched more than its list sorts, and only that search', async () => {
    const memory = new BroadSearches();
    const search = (name: string) => ({
      compile: () => ({ sql: 'select … where name like $1', parameters: [name] }),
    });
    const few = reader([{ match_count: SEARCH_SORT_LIMIT }]);
    await searchedPage(true, 1, few.read, undefined, SEARCH_SORT_LIMIT, memory.of(search('%maria santos%')));
    expect(memory.of(search('%maria santos%')).known()).toBe(false);
    const many = reader([]);
    await searchedPage(
      true,
      400,
      many.read,
      async () => SEARCH_SORT_LIMIT + 1,
      SEARCH_SORT_LIMIT,
      memory.of(search('%a%')),
    );
    expect(memory.of(search('%a%')).known()).toBe(true);
    expect(memory.of(search('%b%')).known()).toBe(false);
    const otherList = {
      compile: () => ({ sql: 'select … where status = $2 and name like $1', parameters: ['%a%'] }),
    };
    expect(memory.of(otherList).known()).toBe(false);
  });

  it('forgets a broad search after its time, and the oldest first when full', () => {
    let now = 0;
    const memory = new BroadSearches(60_000, () => now, 2);
    const search = (name: string) => memory.of({ compile: () => ({ sql: 'q', parameters: [name] }) });
    search('a').remember();
    now = 59_999;
    expect(search('a').known()).toBe(true);
    now = 60_000;
    expect(search('a').known()).toBe(false);
    search('a').remember();
    search('b').remember();
    search('c').remember();
    expect([search('a').known(), search('b').known(), search('c').known()]).toEqual([false, true, true]);
  });
});
