import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useReturnUnappliedPayment } from '../api/unapplied';
import { PaymentLine, type PaymentModalProps } from './payment-line';

/** Mark returned: the money went back to the payer; how and why is required and recorded. */
export function ReturnPaymentModal({ row, opened, onClose }: PaymentModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const markReturned = useReturnUnappliedPayment();
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('collections.unapplied.return.title')}
      description={
        row ? (
          <Stack gap="xs">
            <PaymentLine row={row} />
            <Text size="sm" c="dimmed">
              {t('collections.unapplied.return.help')}
            </Text>
          </Stack>
        ) : undefined
      }
      reasonLabel={t('collections.unapplied.return.reason')}
      confirmLabel={t('collections.unapplied.return.confirm')}
      confirmColor="red.7"
      onConfirm={async (reason) => {
        if (!row) return;
        const returned = await markReturned.run({ id: row.id, reason });
        if (returned)
          notifySuccess(t('collections.unapplied.return.toast', { amount: fmt.money(row.amountMinor) }));
      }}
    />
  );
}
