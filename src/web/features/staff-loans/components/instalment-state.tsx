import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InstalmentPositionDto } from '../../../../domain/schemas/repayments';

type InstalmentState = InstalmentPositionDto['status'];

/**
 * An instalment's state as a filled badge in shades readable on striped table rows (as the status badges):
 * paid green, part paid blue, due amber, overdue red, upcoming grey.
 */
const stateColors: Record<InstalmentState, string> = {
  paid: 'green.8',
  part_paid: 'blue.7',
  due: 'yellow.5',
  overdue: 'red.7',
  upcoming: 'gray.6',
};

/** "Paid", "Part paid", "Due", "Overdue · 12 days", "Upcoming". */
export function InstalmentStateBadge(props: { status: InstalmentState; daysPastDue: number }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={stateColors[props.status]}
      variant="filled"
      autoContrast
      size="sm"
      radius="sm"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t(`staffLoans.schedule.states.${props.status}`, { n: props.daysPastDue })}
    </Badge>
  );
}
