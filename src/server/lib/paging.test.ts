import { describe, expect, it } from 'vitest';
import { COUNT_CAP, type PageRead, pageOffset, SEARCH_SORT_LIMIT, searchedPage } from './paging';

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
});
