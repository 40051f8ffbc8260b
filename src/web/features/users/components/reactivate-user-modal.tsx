import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonModal } from '../../../components/reason-modal';
import { TemporaryPasswordModal } from '../../../components/staff/temporary-password-modal';
import { notifySuccess } from '../../../lib/notify';
import { useReactivateUser, userLabel } from '../api/users';
import type { UserModalProps } from './update-user-modal';

/**
 * Reactivate: a required reason, then the temporary password once (the old password is not trusted
 * again; the user chooses a new one at the next login).
 */
export function ReactivateUserModal({ user, opened, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const reactivate = useReactivateUser();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <>
      <ReasonModal
        opened={opened}
        onClose={onClose}
        title={t('users.reactivate.title')}
        description={user ? t('users.reactivate.description', { username: userLabel(user) }) : undefined}
        confirmLabel={t('users.reactivate.confirm')}
        onConfirm={async (reason) => {
          if (!user) return;
          const result = await reactivate.run({ id: user.id, reason });
          if (!result) return;
          notifySuccess(t('users.reactivate.toast', { username: userLabel(user) }));
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
