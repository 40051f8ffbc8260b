import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { repaymentListItem } from '../../../../domain/schemas/payments';
import { DateTimeCell } from '../../../components/date-time-cell';
import { borrowerColumns } from '../../../components/lists/borrower-columns';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { nameAndPhoneSearch, type SearchField } from '../../../components/lists/search-bar';
import { useFormat } from '../../../lib/format';
import { useChannelName } from '../../../lib/payment-channels';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { RepaymentStatusBadge } from './repayment-status';

type RepaymentItem = z.infer<typeof repaymentListItem>;

/** Repayments: every repayment recorded (by staff or the payment provider), newest first; reversals marked. */
export function RepaymentsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const channelName = useChannelName();
  const r = (key: string) => t(`staffLoans.list.${key}`);
  const search: SearchField[] = [
    ...nameAndPhoneSearch(t),
    { key: 'q', label: r('search'), placeholder: r('searchPlaceholder') },
  ];

  const columns: Column<RepaymentItem>[] = [
    { key: 'receivedOn', header: r('receivedOn'), cell: (item) => fmt.calendarDate(item.receivedOn) },
    ...borrowerColumns<RepaymentItem>(t, fmt, { loanId: (item) => item.loanId }),
    {
      key: 'amount',
      header: r('amount'),
      align: 'right',
      cell: (item) => (
        <Text span size="sm" fw={600} style={item.reversed ? { textDecoration: 'line-through' } : undefined}>
          {fmt.money(item.amountMinor)}
        </Text>
      ),
    },
    {
      key: 'channel',
      header: r('channelSource'),
      cell: (item) => (
        <Stack gap={0}>
          <Text span size="sm">
            {channelName(item.channel)}
          </Text>
          <Text span size="xs" c="dimmed">
            {t(`staffLoans.source.${item.source}`)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'reference',
      header: r('reference'),
      nowrap: false,
      cell: (item) => (
        <Text size="sm" ff="monospace" miw={80} maw={180} style={{ overflowWrap: 'anywhere' }}>
          {item.reference}
        </Text>
      ),
    },
    { key: 'recordedAt', header: r('recordedAt'), cell: (item) => <DateTimeCell iso={item.recordedAt} /> },
    {
      key: 'status',
      header: r('status'),
      cell: (item) => <RepaymentStatusBadge reversed={item.reversed} />,
    },
  ];

  return (
    <ListPage<RepaymentItem>
      title={r('title')}
      queryKey={backOfficeKeys.list('repayments')}
      endpoint="/api/staff/repayments"
      search={search}
      columns={columns}
      rowKey={(item) => item.id}
      tableMinWidth={900}
    />
  );
}
