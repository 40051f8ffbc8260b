import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** "Applied" or "Reversed", filled in the status colours (green 8, red 7: readable on striped rows). */
export function RepaymentStatusBadge({ reversed }: { reversed: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={reversed ? 'red.7' : 'green.8'}
      variant="filled"
      size="sm"
      radius="sm"
      style={{ flexShrink: 0, minWidth: 'max-content' }}
    >
      {t(reversed ? 'staffLoans.ledger.reversed' : 'staffLoans.ledger.applied')}
    </Badge>
  );
}
