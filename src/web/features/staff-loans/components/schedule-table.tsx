import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InstalmentPositionDto, LoanPositionDto } from '../../../../domain/schemas/repayments';
import type { Column } from '../../../components/lists/data-table';
import { useFormat } from '../../../lib/format';
import { InstalmentStateBadge } from './instalment-state';
import { TableSection } from './table-section';

/** Each instalment as it stands today: due date, split, what was paid and what is left, and its state. */
export function ScheduleTable({ position }: { position: LoanPositionDto }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const s = (key: string) => t(`staffLoans.schedule.${key}`);
  const money = (minor: number) => fmt.money(minor);
  const columns: Column<InstalmentPositionDto>[] = [
    { key: 'number', header: s('number'), cell: (row) => fmt.number(row.number) },
    { key: 'dueDate', header: s('dueDate'), cell: (row) => fmt.calendarDate(row.dueDate) },
    {
      key: 'state',
      header: s('state'),
      cell: (row) => <InstalmentStateBadge status={row.status} daysPastDue={row.daysPastDue} />,
    },
    { key: 'payment', header: s('payment'), align: 'right', cell: (row) => money(row.paymentMinor) },
    { key: 'principal', header: s('principal'), align: 'right', cell: (row) => money(row.principalMinor) },
    { key: 'interest', header: s('interest'), align: 'right', cell: (row) => money(row.interestMinor) },
    { key: 'paid', header: s('paid'), align: 'right', cell: (row) => money(row.paidMinor) },
    {
      key: 'unpaid',
      header: s('unpaid'),
      align: 'right',
      cell: (row) => (
        <Text span size="sm" fw={row.unpaidMinor > 0 ? 600 : undefined}>
          {money(row.unpaidMinor)}
        </Text>
      ),
    },
  ];
  return (
    <TableSection
      titleId="schedule-title"
      title={s('title')}
      empty={s('beforePayout')}
      columns={columns}
      rows={position.schedule}
      rowKey={(row) => String(row.number)}
      minWidth={720}
    />
  );
}
