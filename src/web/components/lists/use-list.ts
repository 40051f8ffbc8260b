import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { apiFetch } from '../../lib/api';

/** The server's page envelope for every back-office list (10 rows a page). */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  /** Exact unless `totalCapped`: then at least this many (the server stops counting; docs/decisions/022). */
  total: number;
  totalCapped: boolean;
  pageCount: number;
}

/**
 * A list's state in the URL (`?name=ana&page=2`), so reload and Back work: `page` and one entry per
 * search key. Empty values and page 1 are left out of the URL.
 */
export function useListParams(searchKeys: readonly string[]) {
  const [searchParams, setSearchParams] = useSearchParams();
  const keysId = searchKeys.join('|');

  const rawPage = Number(searchParams.get('page') ?? '1');
  const page = Number.isSafeInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keysId stands for searchKeys
  const search = useMemo(() => {
    const values: Record<string, string> = {};
    for (const key of searchKeys) values[key] = searchParams.get(key) ?? '';
    return values;
  }, [searchParams, keysId]);

  const write = useCallback(
    (next: Record<string, string>, nextPage: number, replace = false) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(next)) if (value.trim()) params.set(key, value.trim());
      if (nextPage > 1) params.set('page', String(nextPage));
      setSearchParams(params, { replace });
    },
    [setSearchParams],
  );

  return {
    page,
    /** The applied search terms, by key ('' when unset). */
    search,
    setPage: useCallback((next: number, replace = false) => write(search, next, replace), [write, search]),
    /** Applies new search terms; always back to page 1 (SPEC §2.7). */
    setSearch: useCallback((next: Record<string, string>) => write(next, 1), [write]),
  };
}

/** `/api/x` + `?name=ana&page=2`, leaving out empty values. */
export function buildListUrl(endpoint: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const text = String(value).trim();
    if (text) query.set(key, text);
  }
  const qs = query.toString();
  return qs ? `${endpoint}${endpoint.includes('?') ? '&' : '?'}${qs}` : endpoint;
}

export interface UseListQueryOptions {
  /** The list's key, e.g. backOfficeKeys.list('pending'); each page is cached under [...key, params]. */
  queryKey: readonly unknown[];
  endpoint: string;
  page: number;
  search: Record<string, string>;
  /** Called when the requested page is past the end (rows were removed): go to the last page. */
  onPageOutOfRange?: (lastPage: number) => void;
}

/** One page of a list from the server; the previous page stays on screen while the next one loads. */
export function useListQuery<T, P extends Page<T> = Page<T>>({
  queryKey,
  endpoint,
  page,
  search,
  onPageOutOfRange,
}: UseListQueryOptions) {
  // Page 1 is the server's default; leaving it out keeps the first page's URL short.
  const params: Record<string, string> = { ...search, ...(page > 1 ? { page: String(page) } : {}) };
  const query = useQuery({
    queryKey: [...queryKey, params],
    queryFn: ({ signal }) => apiFetch<P>(buildListUrl(endpoint, params), { signal }),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const outOfRange =
    !query.isPlaceholderData && data && data.total > 0 && !data.totalCapped && page > data.pageCount;
  useEffect(() => {
    if (outOfRange && data) onPageOutOfRange?.(data.pageCount);
  }, [outOfRange, data, onPageOutOfRange]);
  return query;
}
