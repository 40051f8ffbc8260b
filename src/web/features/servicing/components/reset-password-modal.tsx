import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { notifySuccess } from '../../../lib/notify';
import { useResetBorrowerPassword } from '../api/servicing';
import { LoanLine, type ServicingModalProps } from './loan-line';

/**
 * Reset Password (admin): asks for the reason. The borrower's sessions end, the old password stops working
 * and a code goes by SMS to the borrower's own phone, to choose a new password through "Forgot password?".
 * The staff member sees neither a password nor the code.
 */
export function ResetPasswordModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const reset = useResetBorrowerPassword();
  return (
    <ReasonModal
      opened={opened}
      onClose={onClose}
      title={t('servicing.resetPassword.title')}
      description={
        loan ? (
          <LoanLine loan={loan}>
            <Text size="sm" c="dimmed">
              {t('servicing.resetPassword.help')}
            </Text>
          </LoanLine>
        ) : undefined
      }
      confirmLabel={t('servicing.resetPassword.confirm')}
      confirmColor="red.7"
      onConfirm={async (reason) => {
        if (!loan) return;
        const result = await reset.run({ id: loan.id, reason });
        if (!result) return;
        notifySuccess(t('servicing.resetPassword.toast', { name: loan.fullName }));
      }}
    />
  );
}
