import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApplicationListItem } from '../../../../domain/schemas/staff';
import { FormModal } from '../../../components/modals';
import { useFormat } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useConfirmApproval } from '../api/applications';

/** Four-eyes (docs/decisions/018): a second officer or admin confirms an approval above the threshold. */
export function ConfirmApprovalModal(props: {
  row: ApplicationListItem | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const confirm = useConfirmApproval();
  const { row } = props;
  return (
    <FormModal
      opened={props.opened}
      onClose={props.onClose}
      title={t('backOffice.fourEyes.title')}
      confirmLabel={t('backOffice.fourEyes.confirm')}
      confirmColor="green.8"
      autofocusConfirm
      onConfirm={async () => {
        if (!row) return;
        const profile = await confirm.run({ id: row.id });
        if (profile) notifySuccess(t('backOffice.approve.success', { loanNumber: row.loanNumber }));
      }}
    >
      {row ? (
        <Text size="sm">
          {t('backOffice.fourEyes.description', {
            loanNumber: row.loanNumber,
            name: row.fullName,
            amount: fmt.money(row.amountMinor),
            term: t('backOffice.common.months', { count: row.termMonths }),
            approver: row.firstApprovedBy ?? '',
          })}
        </Text>
      ) : null}
    </FormModal>
  );
}
