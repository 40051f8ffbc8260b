import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { TemporaryPasswordModal } from '../../../components/staff/temporary-password-modal';
import { notifySuccess } from '../../../lib/notify';
import { useResetUserPassword, userLabel } from '../api/users';
import type { UserModalProps } from './update-user-modal';

/** Reset Password: a reason, then the temporary password once (sessions end, change at next login). */
export function ResetUserPasswordModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const reset = useResetUserPassword();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
      <ReasonModal
        opened={opened}
        onClose={onClose}
        title={t('users.resetPassword.title')}
        description={user ? t('users.resetPassword.description', { username: userLabel(user) }) : undefined}
        confirmLabel={t('users.resetPassword.confirm')}
        confirmColor="red.7"
        onConfirm={async (reason) => {
          if (!user) return;
          const result = await reset.run({ id: user.id, reason });
          if (!result) return;
          notifySuccess(t('users.resetPassword.toast', { username: userLabel(user) }));
          setPassword(result.temporaryPassword);
        }}
      />
      <TemporaryPasswordModal
        password={password}
        owner={user ? userLabel(user) : ''}
        onClose={() => setPassword(null)}
      />
    </>
  );
}
