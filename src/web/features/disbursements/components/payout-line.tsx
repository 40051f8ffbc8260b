import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StaffDisbursementItem } from '../../../../domain/schemas/wallet';
import { LoanIdentity } from '../../../components/staff/loan-identity';
import { useFormat } from '../../../lib/format';
import { maskedDestination } from '../../../lib/staff/account-mask';

/**
 * What a payout decision is about: loan, borrower, what to send and where. The fee deducted from the payout
 * (issue #31) is not sent: finance transfers the net amount.
 */
export function PayoutLine({ row }: { row: StaffDisbursementItem }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Stack gap={4}>
      <LoanIdentity loanNumber={row.loanNumber} fullName={row.fullName} />
      <Text size="sm">
        <Text span fw={700}>
          {t('disbursements.net', { net: fmt.money(row.netMinor) })}
        </Text>{' '}
        → {maskedDestination(row.bankName, row.accountNumberLast4)}
      </Text>
      {row.feeMinor > 0 ? (
        <Text size="xs" c="dimmed">
          {t('disbursements.feeNote', { amount: fmt.money(row.amountMinor), fee: fmt.money(row.feeMinor) })}
        </Text>
      ) : null}
    </Stack>
  );
}

export interface PayoutModalProps {
  row: StaffDisbursementItem | null;
  opened: boolean;
  onClose: () => void;
}
