import { Box, Button, Group, LoadingOverlay, Paper, Stack, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/format';
import { usePageTitle } from '../../lib/use-page-title';
import { InlineLoadError, InlineLoading } from '../load-state';
import { type Column, DataTable } from './data-table';
import { Pager } from './pager';
import { SearchBar, type SearchField } from './search-bar';
import { type Page, useListParams, useListQuery } from './use-list';

/** The page's h1 (also the browser tab title) with optional buttons on the right. */
export function PageHeader(props: { title: string; children?: ReactNode }) {
  usePageTitle(props.title);
  return (
    <Group justify="space-between" align="center" gap="sm" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {props.title}
      </Title>
      {props.children ? (
        <Group gap="xs" wrap="wrap">
          {props.children}
        </Group>
      ) : null}
    </Group>
  );
}

/** "Refresh", spinning while `loading`. */
export function RefreshButton(props: { onClick: () => void; loading?: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="default"
      leftSection={<IconRefresh size={16} />}
      onClick={props.onClick}
      loading={props.loading}
    >
      {t('backOffice.common.refresh')}
    </Button>
  );
}

/** What a list's `filters` part gets: the loaded page, the applied filter values and a way to change them. */
export interface ListFilters<P> {
  /** The page on screen (undefined while the first one loads). */
  data: P | undefined;
  /** The applied values of `filterKeys` ('' when unset). */
  values: Record<string, string>;
  /** Sets one filter, keeps the search terms, and goes back to page 1. */
  set: (key: string, value: string) => void;
}

export interface ListPageProps<T, P extends Page<T> = Page<T>> {
  /** Translated page title, e.g. "Pending Loan List". */
  title: string;
  /** e.g. backOfficeKeys.list('pending'); invalidate it after a change to refresh the list. */
  queryKey: readonly unknown[];
  /** GET endpoint answering Page<T> for `?page=&<search keys>=`. */
  endpoint: string;
  search: readonly SearchField[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  /** Extra buttons next to Refresh (e.g. "Export CSV"). */
  actions?: ReactNode;
  /** Shown between the header and the search (e.g. an add-user form). */
  children?: ReactNode;
  /** Below this width the table scrolls sideways; default 880 px. */
  tableMinWidth?: number;
  /** URL and API parameters set by `filters` (e.g. a tab), kept through searches like the search terms. */
  filterKeys?: readonly string[];
  /** Shown between the search and the table (e.g. tabs with counts from the page). */
  filters?: (filters: ListFilters<P>) => ReactNode;
}

/**
 * A whole back-office list page (SPEC §2.7): title, Refresh, search (Enter searches, back to page 1),
 * table with "No results found.", pager with "Page X of Y" ("Y+" when the server stopped counting). Page and
 * search live in the URL.
 */
export function ListPage<T, P extends Page<T> = Page<T>>(props: ListPageProps<T, P>) {
  const searchKeys = [...props.search.map((field) => field.key), ...(props.filterKeys ?? [])];
  const list = useListParams(searchKeys);
  const query = useListQuery<T, P>({
    queryKey: props.queryKey,
    endpoint: props.endpoint,
    page: list.page,
    search: list.search,
    onPageOutOfRange: (last) => list.setPage(last, true),
  });
  const data = query.data;
  const fmt = useFormat();

  return (
    <Box>
      <PageHeader title={props.title}>
        {props.actions}
        <RefreshButton onClick={() => void query.refetch()} loading={query.isFetching && !query.isPending} />
      </PageHeader>
      {props.children}
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="md">
          {props.search.length > 0 ? (
            <SearchBar fields={props.search} values={list.search} onSearch={list.setSearch} />
          ) : null}
          {props.filters?.({
            data,
            values: list.search,
            set: (key, value) => list.setSearch({ ...list.search, [key]: value }),
          })}
          {query.isError ? (
            <InlineLoadError error={query.error} onRetry={() => void query.refetch()} />
          ) : null}
          {query.isPending ? (
            <InlineLoading />
          ) : data ? (
            <Box pos="relative">
              <LoadingOverlay
                visible={query.isPlaceholderData}
                zIndex={2}
                overlayProps={{ blur: 1 }}
                loaderProps={{ size: 'sm' }}
              />
              <DataTable
                columns={props.columns}
                rows={data.items}
                rowKey={props.rowKey}
                minWidth={props.tableMinWidth}
                label={props.title}
              />
              <Pager
                page={list.page}
                pageCount={data.pageCount}
                total={fmt.number(data.total)}
                capped={data.totalCapped}
                onChange={(page) => list.setPage(page)}
                disabled={query.isPlaceholderData}
                formatNumber={fmt.number}
              />
            </Box>
          ) : null}
        </Stack>
      </Paper>
    </Box>
  );
}
