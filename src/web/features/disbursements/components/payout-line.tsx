import { Group, Stack, Text } from '@mantine/core';
import type { StaffDisbursementItem } from '../../../../domain/schemas/wallet';
import { useFormat } from '../../../lib/format';
import { maskedDestination } from '../../../lib/staff/account-mask';

/** What a payout decision is about: loan, borrower, amount and destination. */
export function PayoutLine({ row }: { row: StaffDisbursementItem }) {
  const fmt = useFormat();
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="wrap">
        <Text span ff="monospace" size="sm" fw={600}>
          {row.loanNumber}
        </Text>
        <Text span size="sm">
          {row.fullName}
        </Text>
      </Group>
      <Text size="sm">
        <Text span fw={700}>
          {fmt.money(row.amountMinor)}
        </Text>{' '}
        → {maskedDestination(row.bankName, row.accountNumberLast4)}
      </Text>
    </Stack>
  );
}

export interface PayoutModalProps {
  row: StaffDisbursementItem | null;
  opened: boolean;
  onClose: () => void;
}
