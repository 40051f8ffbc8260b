import { Anchor, Badge, Group, SegmentedControl, Text, useMatches } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  type OverdueListItem,
  type OverduePage as OverduePageDto,
  overdueBuckets,
} from '../../../../domain/schemas/portfolio';
import { borrowerColumns } from '../../../components/lists/borrower-columns';
import type { Column } from '../../../components/lists/data-table';
import { type ListFilters, ListPage } from '../../../components/lists/list-page';
import { nameAndPhoneSearch, type SearchField } from '../../../components/lists/search-bar';
import { StatusBadge } from '../../../components/status-badge';
import { useFormat } from '../../../lib/format';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { bucketFrom } from '../api/overdue';

const ALL = 'all';

/** "All" and one segment per days-past-due bucket, each with its count over the whole book. */
function BucketFilter({ data, values, set }: ListFilters<OverduePageDto>) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const orientation = useMatches<'vertical' | 'horizontal'>({ base: 'vertical', sm: 'horizontal' });
  // A capped count is a lower bound (docs/decisions/022): "1,000+".
  const segment = (label: string, count: number | undefined, capped = false) => (
    <Group gap={6} wrap="nowrap" justify="center">
      <span>{label}</span>
      {count === undefined ? null : (
        <Badge size="sm" variant="light" color="gray" radius="sm">
          {`${fmt.number(count)}${capped ? '+' : ''}`}
        </Badge>
      )}
    </Group>
  );
  return (
    <SegmentedControl
      aria-label={t('collections.overdue.bucketsLabel')}
      orientation={orientation}
      fullWidth={orientation === 'vertical'}
      value={bucketFrom(values.bucket ?? '') ?? ALL}
      onChange={(value) => set('bucket', value === ALL ? '' : value)}
      data={[
        { value: ALL, label: segment(t('collections.overdue.all'), undefined) },
        ...overdueBuckets.map((bucket) => ({
          value: bucket,
          label: segment(
            t(`collections.overdue.bucket.${bucket}`),
            data?.buckets[bucket],
            data?.bucketsCapped[bucket],
          ),
        })),
      ]}
    />
  );
}

/**
 * The Overdue queue (issue #10): running loans with an instalment unpaid after its due date, most days past
 * due first, filtered by bucket and searched on the server. Loans still in their grace days are marked.
 */
export function OverduePage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const o = (key: string) => t(`collections.overdue.columns.${key}`);

  const search: SearchField[] = [
    ...nameAndPhoneSearch(t),
    {
      key: 'q',
      label: t('collections.overdue.searchLoan'),
      placeholder: t('collections.overdue.searchLoanPlaceholder'),
      width: 180,
    },
  ];

  const columns: Column<OverdueListItem>[] = [
    ...borrowerColumns<OverdueListItem>(t, fmt).map((column) =>
      column.key === 'loanId'
        ? {
            ...column,
            cell: (item: OverdueListItem) => (
              <Anchor
                component={Link}
                to={`/admin/loans/${encodeURIComponent(item.id)}`}
                ff="monospace"
                size="xs"
              >
                {item.loanNumber}
              </Anchor>
            ),
          }
        : column,
    ),
    {
      key: 'daysPastDue',
      header: o('daysPastDue'),
      align: 'right',
      // The header may wrap ("Days Past / Due"); the cell keeps its number and marker on their own lines.
      nowrap: false,
      cell: (item) => (
        <Text span size="sm" fw={600}>
          {fmt.number(item.daysPastDue)}
        </Text>
      ),
    },
    {
      key: 'overdueSince',
      header: o('overdueSince'),
      cell: (item) => fmt.calendarDate(item.overdueSince),
    },
    // Amounts have no spaces: only their headers wrap.
    {
      key: 'overdue',
      header: o('overdue'),
      align: 'right',
      nowrap: false,
      cell: (item) => fmt.money(item.overdueMinor),
    },
    {
      key: 'outstanding',
      header: o('outstanding'),
      align: 'right',
      nowrap: false,
      cell: (item) => fmt.money(item.outstandingPrincipalMinor),
    },
    { key: 'nextDue', header: o('nextDue'), cell: (item) => fmt.calendarDate(item.nextDueDate) },
    {
      key: 'status',
      header: t('backOffice.columns.status'),
      cell: (item) => <StatusBadge status={item.status} />,
    },
  ];

  return (
    <ListPage<OverdueListItem, OverduePageDto>
      title={t('collections.overdue.title')}
      queryKey={backOfficeKeys.list('overdue')}
      endpoint="/api/staff/overdue"
      search={search}
      filterKeys={['bucket']}
      filters={(filters) => <BucketFilter {...filters} />}
      columns={columns}
      rowKey={(item) => item.id}
      tableMinWidth={940}
    />
  );
}
