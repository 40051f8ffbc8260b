import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../lib/format';
import type { UnappliedPayment } from '../api/unapplied';

export interface PaymentModalProps {
  row: UnappliedPayment | null;
  opened: boolean;
  onClose: () => void;
}

/** Which payment a dialog is about: "₱1,500.00 from Ana Santos · reference HL-000123". */
export function PaymentLine({ row }: { row: UnappliedPayment }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
      {t('collections.unapplied.summary', {
        amount: fmt.money(row.amountMinor),
        payer: row.payerName?.trim() || t('collections.unapplied.unknownPayer'),
        reference: row.payerReference || fmt.na,
      })}
    </Text>
  );
}
