import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InstalmentPositionDto } from '../../../../domain/schemas/repayments';

type InstalmentState = InstalmentPositionDto['status'];

/** The same colours the borrower's schedule uses for an instalment's state. */
const stateColors: Record<InstalmentState, string> = {
  paid: 'green',
  part_paid: 'blue',
  due: 'orange',
  overdue: 'red',
  upcoming: 'gray',
};

/** "Paid", "Part paid", "Due", "Overdue · 12 days", "Upcoming". */
export function InstalmentStateBadge(props: { status: InstalmentState; daysPastDue: number }) {
  const { t } = useTranslation();
  return (
    <Badge color={stateColors[props.status]} variant="light" size="sm" style={{ flexShrink: 0 }}>
      {t(`staffLoans.schedule.states.${props.status}`, { n: props.daysPastDue })}
    </Badge>
  );
}
