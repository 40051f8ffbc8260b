import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { repaymentListItem } from '../../../../domain/schemas/payments';
import { DateTimeCell } from '../../../components/date-time-cell';
import { borrowerColumns } from '../../../components/lists/borrower-columns';
import type { Column } from '../../../components/lists/data-table';
import { ListPage } from '../../../components/lists/list-page';
import { nameAndPhoneSearch, type SearchField } from '../../../components/lists/search-bar';
import { useFormat } from '../../../lib/format';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { useChannelName } from './channel-name';

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
    { key: 'channel', header: r('channel'), cell: (item) => channelName(item.channel) },
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
    { key: 'source', header: r('source'), cell: (item) => t(`staffLoans.source.${item.source}`) },
    { key: 'recordedAt', header: r('recordedAt'), cell: (item) => <DateTimeCell iso={item.recordedAt} /> },
    {
      key: 'status',
      header: r('status'),
      cell: (item) =>
        item.reversed ? (
          <Badge color="red" variant="light" size="sm">
            {t('staffLoans.ledger.reversed')}
          </Badge>
        ) : (
          <Badge color="green" variant="light" size="sm">
            {t('staffLoans.ledger.applied')}
          </Badge>
        ),
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
      tableMinWidth={980}
    />
  );
}
