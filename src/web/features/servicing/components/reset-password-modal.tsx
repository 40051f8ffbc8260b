import { Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { TemporaryPasswordModal } from '../../../components/staff/temporary-password-modal';
import { notifySuccess } from '../../../lib/notify';
import { useResetBorrowerPassword } from '../api/servicing';
import { LoanLine, type ServicingModalProps } from './loan-line';

/**
 * Reset Password (admin): asks for the reason, then shows the temporary password once. The borrower's
 * sessions end and they must choose a new password at next login.
 */
export function ResetPasswordModal({ loan, opened, onClose }: ServicingModalProps) {
  const { t } = useTranslation();
  const reset = useResetBorrowerPassword();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
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
          setPassword(result.temporaryPassword);
        }}
      />
      <TemporaryPasswordModal
        password={password}
        owner={loan ? `${loan.fullName} (${loan.loanNumber})` : ''}
        onClose={() => setPassword(null)}
      />
    </>
  );
}
