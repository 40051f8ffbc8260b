import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApplicationListItem } from '../../../../domain/schemas/staff';
import { ReasonModal } from '../../../components/reason-modal';
import { notifySuccess } from '../../../lib/notify';
import { tintedBackground } from '../../../lib/styles/tint';
import { useRejectApplication } from '../api/applications';

export interface RejectModalProps {
  row: ApplicationListItem | null;
  opened: boolean;
  onClose: () => void;
}

/** Reject: a required reason (the borrower reads it), then "are you sure?" with the reason shown again. */
export function RejectModal({ row, opened, onClose }: RejectModalProps) {
  const { t } = useTranslation();
  const reject = useRejectApplication();
  const who = { loanNumber: row?.loanNumber ?? '', name: row?.fullName ?? '' };
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('backOffice.reject.title')}
      description={row ? t('backOffice.reject.description', who) : undefined}
      reasonLabel={t('backOffice.reject.reason')}
      confirmLabel={t('backOffice.reject.confirm')}
      confirmColor="red.7"
      draftKey={row ? `reject:${row.id}` : null}
      confirmStep={(reason) => (
        <>
          <Text size="sm">{t('backOffice.reject.confirmQuestion', who)}</Text>
          <Text
            size="sm"
            p="sm"
            bg={tintedBackground}
            style={{ borderRadius: 'var(--mantine-radius-md)', whiteSpace: 'pre-wrap' }}
          >
            {reason}
          </Text>
        </>
      )}
      onConfirm={async (reason) => {
        if (!row) return;
        const profile = await reject.run({ id: row.id, reason });
        if (profile) notifySuccess(t('backOffice.reject.success', { loanNumber: row.loanNumber }));
      }}
    />
  );
}
