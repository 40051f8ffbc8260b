import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useMarkDisbursementFailed } from '../api/disbursements';
import { PayoutLine, type PayoutModalProps } from './payout-line';

/** Mark Failed: a required reason; the amount becomes available to the borrower again. */
export function MarkFailedModal({ row, opened, onClose }: PayoutModalProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const markFailed = useMarkDisbursementFailed();
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('disbursements.failed.title')}
      description={
        row ? (
          <Stack gap="xs">
            <PayoutLine row={row} />
            <Text size="sm" c="dimmed">
              {t('disbursements.failed.help')}
            </Text>
          </Stack>
        ) : undefined
      }
      reasonLabel={t('disbursements.failed.reason')}
      confirmLabel={t('disbursements.failed.confirm')}
      confirmColor="red.7"
      draftKey={row ? `payout.failed:${row.id}` : null}
      onConfirm={async (reason) => {
        if (!row) return;
        const failed = await markFailed.run({ id: row.id, reason });
        if (failed)
          notifySuccess(
            t('disbursements.failed.toast', {
              amount: fmt.money(row.amountMinor),
              loanNumber: row.loanNumber,
            }),
          );
      }}
    />
  );
}
