import { describe, expect, it } from 'vitest';
import { SEARCH_SORT_LIMIT, searchedPage } from './paging';

/** A page reader that records which way it was asked to read, answering `rows` for the matches-first read. */
function reader(matchesFirstRows: { match_count: number }[]) {
  const calls: boolean[] = [];
  const read = async (matchesFirst: boolean) => {
    calls.push(matchesFirst);
    return matchesFirst ? matchesFirstRows : [{ match_count: -1 }];
  };
  return { calls, read };
}

describe('searchedPage', () => {
  it('walks the list order at once when nothing is searched', async () => {
    const { calls, read } = reader([]);
    await searchedPage(false, 1, read);
    expect(calls).toEqual([false]);
  });

  it('keeps the sorted matches while they are all there is', async () => {
    const { calls, read } = reader([{ match_count: SEARCH_SORT_LIMIT }]);
    expect(await searchedPage(true, 3, read)).toEqual([{ match_count: SEARCH_SORT_LIMIT }]);
    expect(calls).toEqual([true]);
  });

  it('walks the list order when the search matched more than it sorts', async () => {
    const { calls, read } = reader([{ match_count: SEARCH_SORT_LIMIT + 1 }]);
    expect(await searchedPage(true, 1, read)).toEqual([{ match_count: -1 }]);
    expect(calls).toEqual([true, false]);
  });

  it('takes an empty first page as no matches, and reads an empty later page again in list order', async () => {
    const first = reader([]);
    expect(await searchedPage(true, 1, first.read)).toEqual([]);
    expect(first.calls).toEqual([true]);
    const later = reader([]);
    await searchedPage(true, 400, later.read);
    expect(later.calls).toEqual([true, false]);
  });
  it('answers an empty later page at once when the matches, counted, are few; reads it in list order when not', async () => {
    const few = reader([]);
    expect(await searchedPage(true, 400, few.read, async () => SEARCH_SORT_LIMIT)).toEqual([]);
    expect(few.calls).toEqual([true]);
    const many = reader([]);
    await searchedPage(true, 400, many.read, async () => SEARCH_SORT_LIMIT + 1);
    expect(many.calls).toEqual([true, false]);
  });
});
