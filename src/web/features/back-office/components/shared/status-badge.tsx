import { Badge, type BadgeProps, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LoanStatus } from '../../../../../domain/loan/status';

/** SPEC §2.7 / §4 colours: Approved green, Pending amber, Rejected and On hold red, Closed gray. */
export const loanStatusColors: Record<LoanStatus, MantineColor> = {
  approved: 'green.8',
  pending: 'yellow.5',
  rejected: 'red.7',
  on_hold: 'red.7',
  closed: 'gray.6',
};

/** A coloured pill with a label; text colour is picked for contrast (dark on amber, white on the rest). */
export function ToneBadge(props: { color: MantineColor; label: string } & Omit<BadgeProps, 'color'>) {
  const { color, label, ...rest } = props;
  return (
    <Badge
      color={color}
      variant="filled"
      autoContrast
      radius="sm"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
      {...rest}
    >
      {label}
    </Badge>
  );
}

/** A loan / application status as a coloured badge with its translated name. */
export function StatusBadge(props: { status: LoanStatus } & Omit<BadgeProps, 'color'>) {
  const { t } = useTranslation();
  const { status, ...rest } = props;
  return <ToneBadge color={loanStatusColors[status]} label={t(`backOffice.status.${status}`)} {...rest} />;
}
